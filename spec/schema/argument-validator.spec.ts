import 'reflect-metadata';
import { expect } from 'chai';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, ValidateBy, ValidateNested } from 'class-validator';
import { Field } from '../../lib/decorators/field.decorator';
import { validateArguments } from '../../lib/schema';

describe('validateArguments', () => {
  class ForecastArgs {
    @Field({ description: 'City name' }) @IsString() @MinLength(1) city!: string;
    @IsOptional() @IsInt() @Min(1) @Max(14) days = 3;
    @IsOptional() @IsBoolean() metric?: boolean;
    @IsOptional() @IsString() @Field({ default: 'en' }) lang?: string;
  }

  class Address {
    @IsString() city!: string;
    @IsString() zip!: string;
  }

  class Trip {
    @ValidateNested() @Type(() => Address) from!: Address;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => Address) stops: Address[] = [];
  }

  context('when the arguments are valid', () => {
    it('returns a real instance with defaults applied', async () => {
      const result = await validateArguments(ForecastArgs, { city: 'Paris' });
      expect(result.ok).to.equal(true);
      if (!result.ok) return;
      expect(result.value).to.be.instanceOf(ForecastArgs);
      expect(result.value).to.deep.include({ city: 'Paris', days: 3, lang: 'en' });
    });

    it('builds nested instances', async () => {
      const result = await validateArguments(Trip, { from: { city: 'Oslo', zip: '0150' }, stops: [{ city: 'Bergen', zip: '5003' }] });
      expect(result.ok).to.equal(true);
      if (!result.ok) return;
      expect(result.value.from).to.be.instanceOf(Address);
      expect(result.value.stops[0]).to.be.instanceOf(Address);
    });

    it('treats missing arguments as an empty object', async () => {
      class NoArgs { @IsOptional() @IsString() q?: string; }
      expect(await validateArguments(NoArgs, undefined)).to.deep.equal({ ok: true, value: new NoArgs() });
    });
  });

  context('when properties are unknown', () => {
    it('drops them at every depth', async () => {
      const result = await validateArguments(Trip, { from: { city: 'Oslo', zip: '1', extra: 1 }, stops: [{ city: 'B', zip: '2', x: 2 }], other: true });
      expect(result.ok).to.equal(true);
      if (!result.ok) return;
      expect(result.value).not.to.have.property('other');
      expect(result.value.from).not.to.have.property('extra');
      expect(result.value.stops[0]).not.to.have.property('x');
    });

    it('ignores __proto__ keys', async () => {
      const result = await validateArguments(ForecastArgs, JSON.parse('{"city":"Rome","__proto__":{"polluted":true}}'));
      expect(result.ok).to.equal(true);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      if (result.ok) expect(Object.getPrototypeOf(result.value)).to.equal(ForecastArgs.prototype);
    });
  });

  context('when the arguments are invalid', () => {
    it('gives one line per failing property', async () => {
      const result = await validateArguments(ForecastArgs, { city: '', days: 30 });
      expect(result).to.deep.equal({ ok: false, issues: ['city: must be longer than or equal to 1 characters', 'days: must not be greater than 14'] });
    });

    it('says only the type of a value of the wrong type, not the rules it cannot be checked against', async () => {
      const result = await validateArguments(ForecastArgs, { city: 42, days: '30' });
      expect(result).to.deep.equal({ ok: false, issues: ['city: must be a string', 'days: must be an integer number'] });
    });

    it('names a custom rule that has no message rather than leaving the line empty', async () => {
      const isSlug = () => ValidateBy({ name: 'isSlug', validator: { validate: (value: unknown) => typeof value === 'string' && /^[a-z-]+$/.test(value) } });
      class Page { @Field({ description: 'slug' }) @IsString() @isSlug() slug!: string; }
      expect(await validateArguments(Page, { slug: 'Not A Slug' })).to.deep.equal({ ok: false, issues: ['slug: fails the isSlug rule'] });
    });

    it('says a missing required property is required', async () => {
      expect(await validateArguments(ForecastArgs, {})).to.deep.equal({ ok: false, issues: ['city: is required'] });
    });

    it('reports required properties that have no validator', async () => {
      class Loose { @Field({ description: 'anything' }) note!: string; }
      expect(await validateArguments(Loose, {})).to.deep.equal({ ok: false, issues: ['note: is required'] });
    });

    it('names nested paths', async () => {
      const result = await validateArguments(Trip, { from: { city: 'Oslo', zip: 1 }, stops: [{ city: 'B', zip: '2' }, { zip: '3' }] });
      expect(result).to.deep.equal({ ok: false, issues: ['from.zip: must be a string', 'stops[1].city: is required'] });
    });

    it('rejects a scalar where a nested object belongs', async () => {
      const result = await validateArguments(Trip, { from: 'Oslo' });
      expect(result).to.deep.equal({ ok: false, issues: ['from: must be either object or array'] });
    });

    it('checks @Field titled choices that no validator lists', async () => {
      class Seat { @Field({ oneOf: { eco: 'Economy', biz: 'Business' } }) cls!: string; }
      expect(await validateArguments(Seat, { cls: 'first' })).to.deep.equal({ ok: false, issues: ['cls: must be one of: eco, biz'] });
      expect((await validateArguments(Seat, { cls: 'biz' })).ok).to.equal(true);
    });

    it('explains each-rules on their property', async () => {
      class Tags { @IsIn(['a', 'b'], { each: true }) tags!: string[]; }
      expect(await validateArguments(Tags, { tags: ['a', 'z'] })).to.deep.equal({ ok: false, issues: ['tags: each value must be one of the following values: a, b'] });
    });
  });

  context('when the input is not an object', () => {
    for (const input of [null, 42, [], 'x', true]) {
      it(`reports ${JSON.stringify(input)} without throwing`, async () => {
        const result = await validateArguments(ForecastArgs, input);
        expect(result.ok).to.equal(false);
        if (!result.ok) expect(result.issues).to.have.length(1).and.to.match(/^arguments: expected an object, got /);
      });
    }

    it('handles a huge object', async () => {
      const big: Record<string, unknown> = { city: 'Lima' };
      for (let i = 0; i < 100_000; i++) big[`k${i}`] = i;
      expect((await validateArguments(ForecastArgs, big)).ok).to.equal(true);
    });
  });

  context('when coerce is on', () => {
    it('converts strings to the declared number and boolean types', async () => {
      const result = await validateArguments(ForecastArgs, { city: 'Paris', days: ' 5 ', metric: 'TRUE' }, { coerce: true });
      expect(result.ok).to.equal(true);
      if (result.ok) expect(result.value).to.deep.include({ days: 5, metric: true });
    });

    it('leaves strings it cannot convert for the validator to report', async () => {
      const result = await validateArguments(ForecastArgs, { city: 'Paris', days: 'soon', metric: 'yes' }, { coerce: true });
      expect(result).to.deep.equal({
        ok: false,
        issues: ['days: must be an integer number', 'metric: must be a boolean value'],
      });
    });

    it('is off by default', async () => {
      const result = await validateArguments(ForecastArgs, { city: 'Paris', days: '5' });
      expect(result.ok).to.equal(false);
    });
  });

  context('when maxArrayItems is given', () => {
    class Tagged {
      @IsArray() @IsString({ each: true }) tags!: string[];
      @IsOptional() @IsArray() @IsString({ each: true }) more?: string[];
      @IsOptional() @IsArray() @IsString({ each: true }) rest?: string[];
    }
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

    it('refuses an array over the limit, valid as it otherwise is', async () => {
      expect(await validateArguments(Tagged, { tags: tags(4) }, { maxArrayItems: 3 })).to.deep.equal({ ok: false, issues: ['tags: must contain at most 3 items (got 4)'] });
    });

    it('refuses more items than ten times the limit in all', async () => {
      class Lists {}
      const names = Array.from({ length: 11 }, (_, i) => `list${i}`);
      for (const name of names) {
        Reflect.defineMetadata('design:type', Array, Lists.prototype, name);
        IsOptional()(Lists.prototype, name);
        IsArray()(Lists.prototype, name);
        IsString({ each: true })(Lists.prototype, name);
      }
      const lists = (count: number) => Object.fromEntries(names.slice(0, count).map((name) => [name, ['a']]));
      expect(await validateArguments(Lists, lists(10), { maxArrayItems: 1 })).to.include({ ok: true });
      expect(await validateArguments(Lists, lists(11), { maxArrayItems: 1 })).to.deep.equal({
        ok: false, issues: ['arguments: must contain at most 10 array items in all, nested ones included (got more)'],
      });
    });

    it('does not count the arrays of undeclared properties, which are dropped', async () => {
      const result = await validateArguments(Tagged, { tags: tags(2), extra: tags(50) }, { maxArrayItems: 3 });
      expect(result.ok).to.equal(true);
      if (result.ok) expect(result.value).to.deep.equal(Object.assign(new Tagged(), { tags: tags(2) }));
    });
  });
});
