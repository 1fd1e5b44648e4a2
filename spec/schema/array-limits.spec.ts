import { expect } from 'chai';
import { oversizeArrays, withMaxItems } from '../../lib/schema/array-limits';

describe('oversizeArrays', () => {
  it('names each array longer than the limit by its path, nested ones included', () => {
    const value = { tags: [1, 2, 3], orders: [{ lines: [1, 2] }, { lines: [1, 2, 3, 4] }] };
    expect(oversizeArrays(value, 3)).to.deep.equal(['orders[1].lines: must contain at most 3 items (got 4)']);
    expect(oversizeArrays(value, 1)).to.deep.equal(['tags: must contain at most 1 items (got 3)', 'orders: must contain at most 1 items (got 2)']);
    expect(oversizeArrays(value, 4)).to.deep.equal([]);
  });

  it('holds all arrays together to ten times the limit, however they nest', () => {
    const nested = { rows: Array.from({ length: 5 }, () => Array.from({ length: 5 }, (_, i) => i)) };
    // 5 rows of 5: 30 items, within ten times the limit (50).
    expect(oversizeArrays(nested, 5)).to.deep.equal([]);
    // Twice that: 60 items, each array within the limit.
    const wide = { rows: Array.from({ length: 5 }, () => Array.from({ length: 5 }, (_, i) => i)), more: Array.from({ length: 5 }, () => [1, 2, 3, 4, 5]) };
    expect(oversizeArrays(wide, 5)).to.deep.equal(['arguments: must contain at most 50 array items in all, nested ones included (got more)']);
  });

  context('when every value is a scalar or an array of scalars (the quick answer)', () => {
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

    it('still names an array over the limit', () => {
      expect(oversizeArrays({ name: 'Ada', tags: tags(4) }, 3)).to.deep.equal(['tags: must contain at most 3 items (got 4)']);
    });

    it('still holds the arrays together to ten times the limit', () => {
      const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`list${i}`, tags(3)]));
      expect(oversizeArrays(many, 3)).to.deep.equal(['arguments: must contain at most 30 array items in all, nested ones included (got more)']);
      expect(oversizeArrays(Object.fromEntries(Object.entries(many).slice(1)), 3)).to.deep.equal([]);
    });

    it('counts own properties only, as the walk does', () => {
      const inherited = Object.create({ hidden: tags(9) }) as Record<string, unknown>;
      inherited.tags = tags(2);
      expect(oversizeArrays(inherited, 3)).to.deep.equal([]);
    });
  });
});

describe('withMaxItems', () => {
  it('adds maxItems to every array schema that gives none, wherever it sits', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'array', items: { type: 'array' } }, b: { type: 'array', maxItems: 2 }, c: { anyOf: [{ type: ['array', 'null'] }] } },
      $defs: { D: { type: 'object', properties: { e: { type: 'array' } } } },
    };
    expect(withMaxItems(schema, 9)).to.deep.equal({
      type: 'object',
      properties: { a: { type: 'array', items: { type: 'array', maxItems: 9 }, maxItems: 9 }, b: { type: 'array', maxItems: 2 }, c: { anyOf: [{ type: ['array', 'null'], maxItems: 9 }] } },
      $defs: { D: { type: 'object', properties: { e: { type: 'array', maxItems: 9 } } } },
    });
    expect(schema.properties.a).to.deep.equal({ type: 'array', items: { type: 'array' } });
  });

  it('gives back the same schema when it has no array without a limit', () => {
    const schema = { type: 'object', properties: { n: { type: 'number' }, b: { type: 'array', maxItems: 2 } } };
    expect(withMaxItems(schema, 9)).to.equal(schema);
  });
});
