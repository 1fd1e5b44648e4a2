import { expect } from 'chai';
import { RedisConnections } from '../../lib/cluster/redis-connections';
import { requireRedis, sharedRedis } from '../support/redis.fixture';

describe(RedisConnections.name, () => {
  requireRedis();

  let connections: RedisConnections;

  beforeEach(async () => {
    connections = new RedisConnections({ url: (await sharedRedis()).url });
    await connections.open();
  });

  afterEach(async () => {
    await connections.close();
  });

  /** How many times `run` writes to the command connection's socket. */
  async function writesOf(run: () => Promise<unknown>): Promise<number> {
    const { stream } = connections.commands;
    const write = stream.write;
    let writes = 0;
    stream.write = function counted(this: typeof stream, ...args: Parameters<typeof write>) {
      writes += 1;
      return write.apply(this, args);
    } as typeof write;
    try {
      await run();
    } finally {
      stream.write = write;
    }
    return writes;
  }

  describe('#commands', () => {
    context('when several commands are issued in one turn of the event loop (the calls of a busy node)', () => {
      it('sends them to Redis in one write, each still answered on its own', async () => {
        const replies: string[] = [];
        const writes = await writesOf(() => Promise.all(Array.from({ length: 20 }, async (_, i) => replies.push(await connections.commands.echo(`call ${i}`)))));
        expect(writes).to.equal(1);
        expect(replies).to.have.members(Array.from({ length: 20 }, (_, i) => `call ${i}`));
      });
    });

    context('when one of them fails', () => {
      it('fails that one only', async () => {
        const outcomes = await Promise.allSettled([
          connections.commands.echo('before'),
          connections.commands.evalsha('0000000000000000000000000000000000000000', 0),
          connections.commands.echo('after'),
        ]);
        expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
        expect(((outcomes[1] as PromiseRejectedResult).reason as Error).message).to.match(/^NOSCRIPT/);
      });
    });
  });
});
