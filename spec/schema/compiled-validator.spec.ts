import 'reflect-metadata';
import { expect } from 'chai';
import * as transformer from 'class-transformer';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDateString, IsDefined, IsEmail, IsEnum, IsIn, IsInt, IsISO8601, IsNumber, IsOptional, IsPositive,
  IsString, IsUrl, IsUUID, Length, Matches, Max, MaxLength, Min, MinLength, registerDecorator, ValidateIf, ValidateNested,
} from 'class-validator';
import { Field } from '../../lib/decorators/field.decorator';
import type { Constructor } from '../../lib/metadata/metadata-store';
import { checkArguments, checkArgumentsFully } from '../../lib/schema/argument-validator';
import { compileClassSchema } from '../../lib/schema/class-schema.compiler';
import { compiledValidator } from '../../lib/schema/compiled-validator';
import { validateFormContent } from '../../lib/schema/form-content.validator';
import type { FormElicitation } from '../../lib/schema/form-elicitation';
import { compileOutputCheck } from '../../lib/schema/output-validator';

/** What the argument validator answers, and whether the compiled validator decided it (a synchronous valid answer). */
async function validated(cls: Function, input: unknown): Promise<{ ok: boolean; value?: unknown; issues?: string[]; compiled: boolean }> {
  const pending = checkArguments(cls as Constructor, input);
  const result = await pending;
  const reference = await checkArgumentsFully(cls as Constructor, input);
  expect(result, `the full path's answer for ${JSON.stringify(input)}`).to.deep.equal(reference);
  return { ...result, compiled: result.ok && !(pending instanceof Promise) };
}

const compiles = (cls: Function): boolean => compiledValidator(cls, compileClassSchema(cls as Constructor)) !== undefined;

enum Level { Low, High }

describe('compiledValidator', () => {
  context('for each built-in rule it calls directly', () => {
    const CASES: Array<[string, PropertyDecorator, unknown, unknown]> = [
      ['IsString', IsString(), 'a', 1],
      ['IsBoolean', IsBoolean(), false, 'false'],
      ['IsInt', IsInt(), 3, 1.5],
      ['IsNumber', IsNumber(), 1.5, Number.NaN],
      ['IsNumber({ maxDecimalPlaces: 1 })', IsNumber({ maxDecimalPlaces: 1 }), 1.5, 1.25],
      ['IsPositive', IsPositive(), 1, 0],
      ['Min', Min(1), 1, 0],
      ['Max', Max(14), 14, 15],
      ['MinLength', MinLength(2), 'ab', 'a'],
      ['MaxLength', MaxLength(2), 'ab', 'abc'],
      ['Length', Length(1, 2), 'a', ''],
      ['Matches', Matches(/^x+$/), 'xx', 'xy'],
      ['IsEmail', IsEmail(), 'a@b.co', 'a@b'],
      ['IsUrl', IsUrl(), 'https://example.com', 'example'],
      ['IsUUID', IsUUID(), '123e4567-e89b-42d3-a456-426614174000', '123'],
      ['IsISO8601', IsISO8601({ strict: true }), '2020-02-29', '2021-02-29'],
      ['IsDateString', IsDateString(), '2020-01-01T10:00:00Z', '2020-01-01T25:00:00Z'],
      ['IsIn', IsIn(['a', 'b']), 'b', 'c'],
      ['IsEnum', IsEnum(Level), 1, 2],
      ['IsDefined', IsDefined(), 0, null],
      ['ArrayMinSize', ArrayMinSize(1), ['a'], []],
      ['ArrayMaxSize', ArrayMaxSize(1), ['a'], ['a', 'b']],
    ];
    for (const [name, decorator, valid, invalid] of CASES) {
      it(`${name}: accepts ${JSON.stringify(valid)} itself, leaves ${JSON.stringify(invalid)} to the full path, which refuses it`, async () => {
        class Args { v!: unknown; }
        decorator(Args.prototype, 'v');
        expect(compiles(Args)).to.equal(true);
        const ok = await validated(Args, { v: valid });
        expect(ok).to.include({ ok: true, compiled: true });
        expect(ok.value).to.be.instanceOf(Args).and.to.deep.include({ v: valid });
        expect(await validated(Args, { v: invalid })).to.include({ ok: false, compiled: false });
      });
    }

    it('applies an each-rule to every item', async () => {
      class Tags { @IsString({ each: true }) @MinLength(2, { each: true }) tags!: string[]; }
      expect(await validated(Tags, { tags: ['ab', 'cd'] })).to.include({ ok: true, compiled: true });
      expect(await validated(Tags, { tags: ['ab', 'c'] })).to.include({ ok: false });
      expect((await validated(Tags, { tags: ['ab', 'c'] })).issues).to.deep.equal(['tags: each value must be longer than or equal to 2 characters']);
    });
  });

  context('when a property is optional', () => {
    class Opt { @IsOptional() @IsInt() @Min(1) n?: number; @IsOptional() @IsDefined() d?: number; }

    it('skips its rules for null and undefined, exactly as class-validator does', async () => {
      for (const input of [{}, { n: null }, { n: undefined }, { d: null }]) {
        expect(await validated(Opt, input), JSON.stringify(input)).to.include({ ok: true, compiled: true });
      }
      expect(await validated(Opt, { n: 0 })).to.include({ ok: false });
    });

    it('follows @ValidateIf', async () => {
      class Cond { @IsBoolean() flag!: boolean; @ValidateIf((o: Cond) => o.flag) @IsString() name?: string; }
      expect(await validated(Cond, { flag: false, name: 3 })).to.include({ ok: true, compiled: true });
      expect(await validated(Cond, { flag: true, name: 3 })).to.include({ ok: false });
    });
  });

  context('when a class has defaults', () => {
    class Defaults {
      @IsOptional() @IsInt() days = 3;
      @IsOptional() @IsString() @Field({ default: 'en' }) lang?: string;
      @IsOptional() @IsString({ each: true }) tags: string[] = ['x'];
    }

    it('keeps initialisers and fills @Field defaults', async () => {
      const result = await validated(Defaults, {});
      expect(result).to.include({ ok: true, compiled: true });
      expect(result.value).to.deep.equal(Object.assign(new Defaults(), { lang: 'en' }));
    });

    it('lets an explicit undefined replace an initialiser, as class-transformer does', async () => {
      const result = await validated(Defaults, { days: undefined, tags: ['y'] });
      expect(result.value).to.have.property('days', undefined);
      expect(result.value).to.deep.include({ tags: ['y'] });
    });
  });

  context('with class-transformer conversions', () => {
    class Conv { @Type(() => Number) @IsInt() n!: number; @Type(() => String) @IsString() s!: string; @Type(() => Date) @Field({}) when?: Date; }

    it('converts as @Type says before the rules run', async () => {
      const result = await validated(Conv, { n: '7', s: 5, when: '2020-01-01' });
      expect(result).to.include({ ok: true, compiled: true });
      expect(result.value).to.deep.include({ n: 7, s: '5' });
      expect((result.value as Conv).when).to.be.instanceOf(Date);
      expect(await validated(Conv, { n: 'seven', s: 'x' })).to.include({ ok: false });
    });
  });

  context('with nested DTOs', () => {
    class Address { @IsString() city!: string; @IsOptional() @IsString() zip?: string; }
    class Trip {
      @ValidateNested() @Type(() => Address) from!: Address;
      @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Address) stops: Address[] = [];
    }

    it('builds instances of the nested classes, at every depth', async () => {
      const result = await validated(Trip, { from: { city: 'Oslo' }, stops: [{ city: 'Bergen', zip: '5003' }] });
      expect(result).to.include({ ok: true, compiled: true });
      const trip = result.value as Trip;
      expect(trip.from).to.be.instanceOf(Address);
      expect(trip.stops[0]).to.be.instanceOf(Address).and.to.deep.include({ city: 'Bergen', zip: '5003' });
    });

    it('checks the nested rules, and refuses what nested validation refuses', async () => {
      for (const input of [{ from: { city: 1 } }, { from: 'Oslo' }, { from: null }, { from: { city: 'O' }, stops: [null] }, { from: { city: 'O' }, stops: [1] }]) {
        expect(await validated(Trip, input), JSON.stringify(input)).to.include({ ok: false });
      }
    });

    it('passes an undefined item, as class-validator does (a tool result may hold one)', async () => {
      expect(await validated(Trip, { from: { city: 'O' }, stops: [undefined] })).to.include({ ok: true, compiled: true });
    });

    it('compiles a class that nests itself', async () => {
      class Node { @IsString() name!: string; @IsOptional() @ValidateNested({ each: true }) @Type(() => Node) children?: Node[]; }
      const result = await validated(Node, { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] });
      expect(result).to.include({ ok: true, compiled: true });
      expect((result.value as Node).children![0].children![0]).to.be.instanceOf(Node);
      expect(await validated(Node, { name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] })).to.include({ ok: false });
    });

    it('leaves @ValidateNested without @Type to the full path (class-transformer keeps a plain object there)', async () => {
      class Loose { @ValidateNested() from!: Address; }
      const result = await validated(Loose, { from: { city: 1 } });
      expect(result).to.include({ ok: true, compiled: false });
    });
  });

  context('with what it does not cover', () => {
    it('leaves async rules, groups, @Transform and discriminators to the full path', () => {
      class Async { @Field({}) v!: string; }
      registerDecorator({ name: 'later', target: Async, propertyName: 'v', async: true, validator: { validate: async () => true } });
      class Grouped { @IsString({ groups: ['a'] }) v!: string; }
      class Transformed { @Transform(({ value }) => String(value).trim()) @IsString() v!: string; }
      class A { @IsString() a!: string; }
      class Discriminated { @ValidateNested() @Type(() => A, { discriminator: { property: 'kind', subTypes: [{ name: 'a', value: A }] } }) v!: A; }
      for (const cls of [Async, Grouped, Transformed, Discriminated]) expect(compiles(cls), cls.name).to.equal(false);
    });

    it('runs a user rule that borrows a built-in name through its own instance', async () => {
      class Even { v!: number; }
      registerDecorator({ name: 'isInt', target: Even, propertyName: 'v', validator: { validate: (value: unknown) => typeof value === 'number' && value % 2 === 0 } });
      expect(await validated(Even, { v: 4 })).to.include({ ok: true, compiled: true });
      expect(await validated(Even, { v: 3 })).to.include({ ok: false });
    });

    it('leaves sparse arrays and values that are not JSON to the full path', async () => {
      class Tags { @IsArray() tags!: unknown[]; @IsOptional() @Field({}) when?: unknown; }
      // eslint-disable-next-line no-sparse-arrays
      expect(await validated(Tags, { tags: [1, , 2] })).to.include({ compiled: false });
      expect(await validated(Tags, { tags: [], when: new Date(0) })).to.include({ compiled: false });
    });

    it('ignores __proto__ and undeclared keys like the full path', async () => {
      class Named { @IsString() name!: string; }
      const result = await validated(Named, JSON.parse('{"name":"x","__proto__":{"polluted":true},"constructor":1}'));
      expect(result).to.include({ ok: true, compiled: true });
      expect(Object.getPrototypeOf(result.value)).to.equal(Named.prototype);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });
  });

  context('for output DTOs and @Elicit form classes', () => {
    class Registration {
      @IsString() @Length(2, 64) name!: string;
      @IsEmail() email!: string;
      @IsDateString({ strict: true }) birthday!: string;
      @IsArray() @IsString({ each: true }) @ArrayMinSize(1) @ArrayMaxSize(10) tags!: string[];
    }
    const valid = { name: 'Ada Lovelace', email: 'ada@example.com', birthday: '1815-12-10', tags: ['math'] };

    /** How often `run` takes the full path: class-transformer's `plainToInstance`, which the compiled validator never calls. */
    async function fullPathsIn(run: () => Promise<unknown>): Promise<number> {
      const library = transformer as { plainToInstance: typeof transformer.plainToInstance };
      const original = library.plainToInstance;
      let calls = 0;
      library.plainToInstance = ((...args: Parameters<typeof original>) => { calls += 1; return original(...args); }) as typeof original;
      try {
        await run();
      } finally {
        library.plainToInstance = original;
      }
      return calls;
    }

    it('checks a valid structured result with the compiled validator', async () => {
      const check = compileOutputCheck(Registration);
      expect(await fullPathsIn(async () => expect(await check(valid)).to.deep.equal([]))).to.equal(0);
      expect(await fullPathsIn(async () => expect(await check({ ...valid, email: 'ada' })).to.deep.equal(['email: must be an email']))).to.equal(1);
    });

    it('validates an accepted form of a class with the compiled validator', async () => {
      const form = { formClass: Registration } as unknown as FormElicitation;
      expect(await fullPathsIn(async () => expect(await validateFormContent(form, valid)).to.include({ ok: true }))).to.equal(0);
      expect(await fullPathsIn(async () => expect(await validateFormContent(form, { ...valid, birthday: '1815-02-30' })).to.include({ ok: false }))).to.equal(1);
    });
  });

  context('when the input is invalid', () => {
    it('words the issues exactly as the full path does', async () => {
      class Forecast { @IsString() @MinLength(1) city!: string; @IsOptional() @IsInt() @Min(1) @Max(14) days = 3; }
      const result = await validated(Forecast, { city: '', days: 30 });
      expect(result.issues).to.deep.equal(['city: must be longer than or equal to 1 characters', 'days: must not be greater than 14']);
    });
  });
});
