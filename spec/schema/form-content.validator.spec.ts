import 'reflect-metadata';
import { expect } from 'chai';
import { IsEmail, IsEnum, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Elicit } from '../../lib/decorators/elicit.decorator';
import { buildForm, formFromClass, validateFormContent } from '../../lib/schema';

describe('validateFormContent', () => {
  context('when the form is a class', () => {
    @Elicit({ message: 'Who?' })
    class Who {
      @IsString() name!: string;
      @IsEmail() email!: string;
      @IsOptional() @IsInt() @Min(1) @Max(10) seats?: number;
      @IsOptional() @IsEnum(['aisle', 'window']) place?: string;
    }

    it('returns a validated instance', async () => {
      const result = await validateFormContent(formFromClass(Who), { name: 'Ada', email: 'ada@example.com' });
      expect(result.ok).to.equal(true);
      if (result.ok) expect(result.value).to.be.instanceOf(Who);
    });

    it('reports invalid answers', async () => {
      expect(await validateFormContent(formFromClass(Who), { name: 'Ada', email: 'nope' })).to.deep.equal({ ok: false, issues: ['email: must be an email'] });
    });

    it('says only the type of an answer of the wrong type, and names the values an @IsEnum allows', async () => {
      expect(await validateFormContent(formFromClass(Who), { name: 'Ada', email: 'ada@example.com', seats: 'many', place: 'roof' })).to.deep.equal({
        ok: false,
        issues: ['seats: must be an integer number', 'place: must be one of the following values: aisle, window'],
      });
    });
  });

  context('when the form was built', () => {
    const form = buildForm({
      message: 'Tell us',
      requestedSchema: [
        { type: 'string', name: 'name', required: true, minLength: 2, maxLength: 5, pattern: /^[a-z]+$/i },
        { type: 'string', name: 'email', format: 'email' },
        { type: 'string', name: 'site', format: 'uri' },
        { type: 'string', name: 'day', format: 'date' },
        { type: 'string', name: 'at', format: 'date-time' },
        { type: 'integer', name: 'age', minimum: 0, maximum: 150 },
        { type: 'number', name: 'ratio', default: 0.5 },
        { type: 'boolean', name: 'ok' },
        { type: 'enum', name: 'role', enum: [['dev', 'Developer'], ['pm', 'PM']] },
        { type: 'enum', name: 'tags', enum: ['a', 'b', 'c'], multi: true, min: 1, max: 2 },
      ],
    });

    it('accepts a valid answer, dropping unknown fields and filling defaults', async () => {
      const content = { name: 'Ada', email: 'a@b.co', site: 'https://x.test/p', day: '2025-02-28', at: '2025-02-28T10:00:00Z', age: 36, ok: true, role: 'pm', tags: ['a'], extra: 1 };
      const result = await validateFormContent(form, content);
      const { extra: _extra, ...expected } = content;
      expect(result).to.deep.equal({ ok: true, value: { ...expected, ratio: 0.5 } });
    });

    it('gives one line per failing field', async () => {
      const result = await validateFormContent(form, {
        name: 'A1', email: 'nope', site: 'x', day: '2025-02-30', at: 'noon', age: 1.5, ratio: '1', ok: 'yes', role: 'ceo', tags: ['a', 'b', 'z'],
      });
      expect(result).to.deep.equal({
        ok: false,
        issues: [
          'name: must match ^[a-z]+$',
          'email: must be a valid email',
          'site: must be a valid uri',
          'day: must be a valid date',
          'at: must be a valid date-time',
          'age: must be an integer',
          'ratio: must be a number',
          'ok: must be a boolean',
          'role: must be one of: dev, pm',
          'tags: "z" is not one of: a, b, c; must have at most 2 selected',
        ],
      });
    });

    it('checks lengths and bounds', async () => {
      const result = await validateFormContent(form, { name: 'abcdef', age: 151, tags: [] });
      expect(result).to.deep.equal({
        ok: false,
        issues: ['name: must be at most 5 characters', 'age: must not be greater than 150', 'tags: must have at least 1 selected'],
      });
    });

    it('requires required fields, counting null as absent', async () => {
      expect(await validateFormContent(form, { name: null })).to.deep.equal({ ok: false, issues: ['name: is required'] });
    });

    for (const content of [null, 42, [], 'x']) {
      it(`reports ${JSON.stringify(content)} content without throwing`, async () => {
        const result = await validateFormContent(form, content);
        expect(result.ok).to.equal(false);
        if (!result.ok) expect(result.issues[0]).to.match(/^content: expected an object, got /);
      });
    }
  });
});
