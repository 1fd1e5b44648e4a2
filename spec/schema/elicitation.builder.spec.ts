import { expect } from 'chai';
import { SEED_REQUESTED_SCHEMA } from '../support/seed-form';
import { PhantomError } from '../../lib/core/errors';
import { buildForm, buildUrl, toElicitParams, type FormProperty } from '../../lib/schema';

/** The requestedSchema of a one-property form. */
const schemaOf = (property: FormProperty) => buildForm({ message: 'm', requestedSchema: [property] }).requestedSchema.properties[property.name];

describe('buildForm', () => {
  context("when given the seed's example", () => {
    it('builds the exact requestedSchema', () => {
      const form = buildForm({
        message: 'What is your info?',
        requestedSchema: [
          { type: 'string', name: 'name', required: true, title: 'Your name' },
          { type: 'string', name: 'email', required: true, title: 'Email', format: 'email' },
          { type: 'enum', name: 'role', required: true, title: 'Role', enum: [['dev', 'Developer'], ['pm', 'Product Manager']] },
        ],
      });
      expect(toElicitParams(form)).to.deep.equal({
        mode: 'form',
        message: 'What is your info?',
        requestedSchema: SEED_REQUESTED_SCHEMA,
      });
    });
  });

  context('when properties are strings, numbers and booleans', () => {
    it('carries every option', () => {
      expect(schemaOf({ type: 'string', name: 's', title: 'S', description: 'd', minLength: 1, maxLength: 9, pattern: /^[a-z]+$/i, format: 'date_time' }))
        .to.deep.equal({ type: 'string', title: 'S', description: 'd', minLength: 1, maxLength: 9, pattern: '^[a-z]+$', format: 'date-time' });
      expect(schemaOf({ type: 'string', name: 's', format: 'date-time', pattern: '^\\d' })).to.deep.equal({ type: 'string', format: 'date-time', pattern: '^\\d' });
      expect(schemaOf({ type: 'integer', name: 'n', minimum: 1, maximum: 5 })).to.deep.equal({ type: 'integer', minimum: 1, maximum: 5 });
      expect(schemaOf({ type: 'number', name: 'n', minimum: 0.5 })).to.deep.equal({ type: 'number', minimum: 0.5 });
      expect(schemaOf({ type: 'boolean', name: 'b', title: 'B' })).to.deep.equal({ type: 'boolean', title: 'B' });
    });

    it('leaves required out when nothing is required', () => {
      expect(buildForm({ message: 'm', requestedSchema: [{ type: 'boolean', name: 'b' }] }).requestedSchema).to.deep.equal({
        type: 'object',
        properties: { b: { type: 'boolean' } },
      });
    });
  });

  context('when properties have defaults', () => {
    it('puts a default on every primitive', () => {
      expect(schemaOf({ type: 'string', name: 'x', default: 'hi' })).to.deep.equal({ type: 'string', default: 'hi' });
      expect(schemaOf({ type: 'number', name: 'x', default: 1.5 })).to.deep.equal({ type: 'number', default: 1.5 });
      expect(schemaOf({ type: 'integer', name: 'x', default: 2 })).to.deep.equal({ type: 'integer', default: 2 });
      expect(schemaOf({ type: 'boolean', name: 'x', default: false })).to.deep.equal({ type: 'boolean', default: false });
      expect(schemaOf({ type: 'enum', name: 'x', enum: ['a', 'b'], default: 'b' })).to.deep.equal({ type: 'string', enum: ['a', 'b'], default: 'b' });
      expect(schemaOf({ type: 'enum', name: 'x', enum: ['a', 'b'], multi: true, default: ['a'] }))
        .to.deep.equal({ type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] });
    });
  });

  context('when properties are selects', () => {
    it('builds an untitled single select', () => {
      expect(schemaOf({ type: 'enum', name: 'x', title: 'X', enum: ['a', 'b'] })).to.deep.equal({ type: 'string', title: 'X', enum: ['a', 'b'] });
    });

    it('builds a titled single select from pairs or { const, title }', () => {
      const expected = { type: 'string', oneOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }] };
      expect(schemaOf({ type: 'enum', name: 'x', enum: [['a', 'Alpha'], ['b', 'Beta']] })).to.deep.equal(expected);
      expect(schemaOf({ type: 'enum', name: 'x', enum: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }] })).to.deep.equal(expected);
    });

    it('builds an untitled multi select', () => {
      expect(schemaOf({ type: 'enum', name: 'x', enum: ['a', 'b', 'c'], multi: true, min: 1, max: 2 }))
        .to.deep.equal({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 });
    });

    it('builds a titled multi select with items.anyOf', () => {
      expect(schemaOf({ type: 'enum', name: 'x', enum: [['a', 'Alpha'], ['b', 'Beta']], multi: true, max: 1 }))
        .to.deep.equal({ type: 'array', items: { anyOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }] }, maxItems: 1 });
    });

    it('builds the legacy enumNames select', () => {
      expect(schemaOf({ type: 'enum', name: 'x', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] }))
        .to.deep.equal({ type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] });
    });
  });

  context('when the spec is wrong', () => {
    const problemsOf = (spec: unknown): string => {
      try {
        buildForm(spec as never);
      } catch (error) {
        expect(error).to.be.instanceOf(PhantomError).with.property('code', 'elicitation_invalid');
        return (error as Error).message;
      }
      throw new Error('expected buildForm to throw');
    };

    it('rejects a format forms cannot carry', () => {
      expect(problemsOf({ message: 'm', requestedSchema: [{ type: 'string', name: 'id', format: 'uuid' }] }))
        .to.include('property "id": Invalid format in string property: "uuid"');
    });

    it('lists every problem at once', () => {
      const message = problemsOf({
        message: '',
        requestedSchema: [
          { type: 'text', name: 'a' },
          { type: 'string', name: 'a', pattern: '(' },
          { type: 'enum', name: 'e', enum: [] },
          { type: 'enum', name: 'f', enum: ['x'], default: 'y' },
          { type: 'integer', name: 'n', minimum: 5, maximum: 1, default: 1.5 },
          { type: 'boolean' },
        ],
      });
      expect(message.split('\n').slice(1)).to.deep.equal([
        '  - message must be a non-empty string',
        '  - property "a": has unknown type "text" (string, number, integer, boolean, enum)',
        '  - property "a": is declared twice',
        '  - property "a": pattern "(" is not a valid regular expression',
        '  - property "e": enum must be a non-empty list of values',
        '  - property "f": default must be one of the enum values',
        '  - property "n": minimum must not exceed maximum',
        '  - property "n": default must be an integer',
        '  - requestedSchema[5]: needs a non-empty name',
      ]);
    });

    it('rejects a spec that is not an object', () => {
      expect(problemsOf(null)).to.include('the spec must be an object');
    });
  });

  context("when the caller's spec is reused", () => {
    it('neither freezes nor keeps it', () => {
      const property = { type: 'enum' as const, name: 'x', enum: ['a'] };
      const form = buildForm({ message: 'm', requestedSchema: [property] });
      expect(Object.isFrozen(property)).to.equal(false);
      expect(form.properties?.[0]).not.to.equal(property);
      expect(Object.isFrozen(form.requestedSchema)).to.equal(true);
    });
  });
});

describe('buildUrl', () => {
  context('when the spec is complete', () => {
    it('builds the URL elicitation and its wire params', () => {
      const elicitation = buildUrl({ message: 'Please authenticate', url: 'https://example.com/oauth?elicitation_id=e1', elicitationId: 'e1' });
      expect(elicitation).to.deep.equal({ mode: 'url', message: 'Please authenticate', url: 'https://example.com/oauth?elicitation_id=e1', elicitationId: 'e1' });
      expect(toElicitParams(elicitation)).to.deep.equal({
        mode: 'url',
        message: 'Please authenticate',
        url: 'https://example.com/oauth?elicitation_id=e1',
        elicitationId: 'e1',
      });
    });
  });

  context('when the spec is wrong', () => {
    it('throws a PhantomError naming each problem', () => {
      expect(() => buildUrl({ message: 'm', url: 'not a url', elicitationId: '' }))
        .to.throw(PhantomError, /url must be an absolute URL[\s\S]*elicitationId must be a non-empty string/);
    });
  });
});
