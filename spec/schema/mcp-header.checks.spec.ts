import 'reflect-metadata';
import { expect } from 'chai';
import { IsInt, IsNumber, IsString } from 'class-validator';
import { DefinitionError, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import { mcpHeaderProblems } from '../../lib/schema/mcp-header.checks';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('mcpHeaderProblems', () => {
  context('when every annotation follows the rules', () => {
    it('finds nothing, nested object properties included', () => {
      expect(mcpHeaderProblems(object({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        limit: { type: 'integer', 'x-mcp-header': 'Limit' },
        dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
        target: object({ zone: { type: 'string', 'x-mcp-header': 'Zone' } }),
        plain: { type: 'string' },
      }))).to.deep.equal([]);
    });

    it('lets a property be named x-mcp-header', () => {
      expect(mcpHeaderProblems(object({ 'x-mcp-header': { type: 'string' } }))).to.deep.equal([]);
    });
  });

  context('when a value is not an HTTP token', () => {
    it('names the property and the value', () => {
      for (const bad of ['Has Space', 'New\nLine', 'Colon:', 'Ünicode']) {
        expect(mcpHeaderProblems(object({ a: { type: 'string', 'x-mcp-header': bad } }))).to.have.length(1).and.satisfy((p: string[]) => p[0].startsWith('"a": "x-mcp-header"'));
      }
    });

    it('refuses an empty or non-string value', () => {
      expect(mcpHeaderProblems(object({ a: { type: 'string', 'x-mcp-header': '' }, b: { type: 'string', 'x-mcp-header': 7 } }))).to.deep.equal([
        '"a": "x-mcp-header" must be a non-empty string',
        '"b": "x-mcp-header" must be a non-empty string',
      ]);
    });
  });

  context('when two annotations differ only in case', () => {
    it('names the second and the first', () => {
      expect(mcpHeaderProblems(object({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'region' } }))).to.deep.equal([
        '"b": "x-mcp-header" "region" is already used by "a" (header names ignore case)',
      ]);
    });
  });

  context('when the property is not a string, integer or boolean', () => {
    it('refuses number, object, array and untyped properties', () => {
      const problems = mcpHeaderProblems(object({
        n: { type: 'number', 'x-mcp-header': 'N' },
        o: { type: 'object', 'x-mcp-header': 'O' },
        l: { type: 'array', 'x-mcp-header': 'L' },
        u: { 'x-mcp-header': 'U' },
      }));
      expect(problems).to.have.length(4);
      expect(problems[0]).to.equal('"n": "x-mcp-header" needs a string, integer or boolean property (this one is "number")');
    });
  });

  context('when an annotation is not reached through properties alone', () => {
    it('refuses it inside items, a composition, a condition and $defs', () => {
      const problems = mcpHeaderProblems({
        type: 'object',
        properties: {
          list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } },
          either: { oneOf: [{ type: 'string', 'x-mcp-header': 'One' }] },
        },
        if: { properties: { a: { type: 'string', 'x-mcp-header': 'If' } } },
        $defs: { d: { type: 'string', 'x-mcp-header': 'Def' } },
      });
      expect(problems).to.deep.equal([
        '"x-mcp-header" may only annotate a property reached through "properties" from the root (not inside items, oneOf/anyOf/allOf/not, if/then/else or $ref): 4 found elsewhere',
      ]);
    });
  });
});

describe('PhantomServer with a tool whose header annotation breaks the rules', () => {
  class BadArgs {
    @Field({ description: 'Where', header: 'The Region' }) @IsString() region!: string;
    @Field({ description: 'How much', header: 'Amount' }) @IsNumber() amount!: number;
    @Field({ description: 'How many', header: 'amount' }) @IsInt() count!: number;
  }
  class Tools {
    @Tool({ description: 'Routes' }) route(args: BadArgs) { return args.region; }
  }

  it('refuses to start, naming the tool and each problem (a client would drop the tool silently)', () => {
    let error: unknown;
    try {
      new PhantomServer({ name: 's', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS });
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(DefinitionError);
    const problems = (error as DefinitionError).problems.filter((p) => p.includes('x-mcp-header'));
    expect(problems).to.have.length(3);
    expect(problems.every((p) => p.includes('tool "route"'))).to.equal(true);
    expect(problems.join('\n')).to.include('"The Region"').and.include('(this one is "number")').and.include('already used by "amount"');
  });

  it('starts with annotations that follow them', () => {
    class GoodArgs {
      @Field({ description: 'Where', header: 'Region' }) @IsString() region!: string;
    }
    class Good {
      @Tool({ description: 'Routes' }) route(args: GoodArgs) { return args.region; }
    }
    expect(() => new PhantomServer({ name: 's', version: '1', providers: [Good], diagnostics: SILENT_DIAGNOSTICS })).not.to.throw();
  });
});
