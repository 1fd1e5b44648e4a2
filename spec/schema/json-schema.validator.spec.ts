import { expect } from 'chai';
import { compileSchemaCheck } from '../../lib/schema/json-schema.validator';

const STOPS = {
  type: 'object',
  properties: {
    stops: { type: 'array', items: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
    mode: { enum: ['car', 'train'] },
    'a/b~c': { type: 'integer' },
  },
  required: ['stops'],
} as const;

describe('compileSchemaCheck', () => {
  context('when the value conforms', () => {
    it('finds no problem', () => {
      expect(compileSchemaCheck(STOPS, 'arguments')({ stops: [{ city: 'Lisbon' }], mode: 'car' })).to.deep.equal([]);
    });
  });

  context('when the value breaks the schema', () => {
    it('says every problem, one line each, in the paths argument validation uses', () => {
      const problems = compileSchemaCheck(STOPS, 'arguments')({ stops: [{ city: 'Lisbon' }, { town: 'x' }], mode: 'bus', 'a/b~c': 'x' });
      expect(problems).to.have.members([
        'stops[1].city: is required',
        'stops[1].town: is not allowed',
        'mode: must be one of: "car", "train"',
        'a/b~c: must be integer',
      ]);
    });

    it('names the value itself by the root it was given', () => {
      expect(compileSchemaCheck(STOPS, 'structuredContent')('text')).to.deep.equal(['structuredContent: must be object']);
      expect(compileSchemaCheck(STOPS, 'arguments')({})).to.deep.equal(['stops: is required']);
    });
  });

  context('when the schema names its dialect', () => {
    it('checks with that dialect (draft-07 and 2019-09 as well as the 2020-12 default)', () => {
      for (const $schema of ['http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2019-09/schema', 'https://json-schema.org/draft/2020-12/schema']) {
        expect(compileSchemaCheck({ $schema, type: 'object', required: ['n'] }, 'arguments')({}), $schema).to.deep.equal(['n: is required']);
      }
    });

    it('refuses a dialect it does not support, listing those it does', () => {
      expect(() => compileSchemaCheck({ $schema: 'http://json-schema.org/draft-04/schema#' }, 'arguments')).to.throw(/draft-04\/schema#" is not supported \(use https:\/\/json-schema.org\/draft\/2020-12\/schema/);
      expect(() => compileSchemaCheck({ $schema: 'constructor' }, 'arguments')).to.throw(/is not supported/);
    });
  });

  context('when the schema is not valid', () => {
    it('throws at compile time', () => {
      expect(() => compileSchemaCheck({ type: 'no-such-type' } as never, 'arguments')).to.throw();
    });
  });

  context('when two schemas share an $id (two tools written alike)', () => {
    it('compiles both', () => {
      const first = compileSchemaCheck({ $id: 'https://example.com/args', type: 'object', required: ['a'] }, 'arguments');
      const second = compileSchemaCheck({ $id: 'https://example.com/args', type: 'object', required: ['b'] }, 'arguments');
      expect([first({}), second({})]).to.deep.equal([['a: is required'], ['b: is required']]);
    });
  });

  context('when the schema carries MCP annotations beside the standard keywords', () => {
    it('takes them as annotations, not errors', () => {
      const check = compileSchemaCheck({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } as never, 'arguments');
      expect(check({ region: 'eu' })).to.deep.equal([]);
    });
  });
});
