import 'reflect-metadata';
import { expect } from 'chai';
import { connect, textOf } from '../../../lib/testing';
import { createServer, Trips } from '../../../docs/examples/eras';

const ANSWERS: Record<string, Record<string, string | number>> = {
  'Which city?': { city: 'Kyoto' },
  'How many nights?': { nights: 3 },
};

// docs/concepts/eras.md, as the page tells it: a handler runs once in the session era and once
// per round in the stateless era; asking at once needs one round; reads carry caching hints.
describe('docs/examples/eras.ts (the two protocol eras)', () => {
  const rounds = { session: { one_by_one: 1, together: 1 }, stateless: { one_by_one: 3, together: 2 } } as const;

  for (const era of ['session', 'stateless'] as const) {
    for (const tool of ['one_by_one', 'together'] as const) {
      it(`${tool} starts ${rounds[era][tool]} time(s) in the ${era} era, with the same result`, async () => {
        const trips = new Trips();
        const asked: string[] = [];
        const client = await connect(createServer(), {
          era,
          overrides: [[Trips, trips]],
          elicit: (params) => { asked.push(params.message); return { action: 'accept', content: ANSWERS[params.message] }; },
        });
        expect(textOf(await client.callTool({ name: tool, arguments: {} }))).to.equal('Kyoto, 3 nights');
        expect(trips.started).to.equal(rounds[era][tool]);
        expect(asked).to.have.members(['Which city?', 'How many nights?']);
        await client.close();
      });
    }
  }

  it('a read in the stateless era carries the resource\'s caching hint and the server\'s identity', async () => {
    const client = await connect(createServer(), { era: 'stateless' });
    const result = await client.readResource({ uri: 'trips://destinations' }) as Record<string, unknown>;
    expect(result).to.deep.include({ resultType: 'complete', ttlMs: 3_600_000, cacheScope: 'public' });
    expect(JSON.stringify(result._meta)).to.contain('"trips"');
    await client.close();
  });

  it('a read in the session era carries no caching hint', async () => {
    const client = await connect(createServer());
    const result = await client.readResource({ uri: 'trips://destinations' }) as Record<string, unknown>;
    expect(result).not.to.have.property('ttlMs');
    expect(result).not.to.have.property('resultType');
    await client.close();
  });
});
