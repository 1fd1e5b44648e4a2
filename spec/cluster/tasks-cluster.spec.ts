import 'reflect-metadata';
import { expect } from 'chai';
import { uniqueId } from '../../lib/core/unique-id';
import { call, meta } from '../integration/support/stateless-client';
import { eventually } from '../support/eventually';
import { requireRedis, sharedRedis } from '../support/redis.fixture';
import { Cluster } from './support/cluster';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

describe('tasks on three replicas behind a round-robin proxy', function () {
  this.timeout(60_000);
  requireRedis();
  let cluster: Cluster;

  before(async () => {
    cluster = await new Cluster((await sharedRedis()).url, `tasks-${uniqueId()}:`).start();
  });

  after(async () => {
    await cluster?.stop();
  });

  /** Starts a task of `tool` through the proxy; its id and the node that runs it. */
  async function start(tool: string, args: Record<string, unknown>): Promise<{ taskId: string; runner: number }> {
    const seen = cluster.proxy.routed.length;
    const reply = await call(cluster.url, 'tools/call', { name: tool, arguments: args, _meta: meta({ elicitation: {}, ...TASKS }) });
    expect(reply.body.result, JSON.stringify(reply.body)).to.include({ resultType: 'task', status: 'working' });
    const runner = cluster.proxy.routed.slice(seen).find((r) => r.tool === tool)!.upstream;
    return { taskId: reply.body.result.taskId as string, runner };
  }

  /** A task method through the proxy, with the routing header the extension asks for. */
  async function task(method: string, taskId: string, params: Record<string, unknown> = {}) {
    const seen = cluster.proxy.routed.length;
    const reply = await call(cluster.url, method, { taskId, ...params, _meta: meta(TASKS) }, { 'mcp-name': taskId });
    return { body: reply.body, upstream: cluster.proxy.routed.slice(seen).find((r) => r.rpc === method)?.upstream };
  }

  context('when a task is started on one node', () => {
    it('is polled on every node, and its result, stored once, reads the same on each', async () => {
      const { taskId, runner } = await start('crunch', { ms: 300 });
      const polled = [];
      for (let i = 0; i < 3; i++) polled.push(await task('tasks/get', taskId));
      expect(new Set(polled.map((p) => p.upstream)).size, 'polled on three nodes').to.equal(3);
      for (const { body } of polled) expect(body.result.taskId).to.equal(taskId);
      await eventually('the task completes', async () => (await task('tasks/get', taskId)).body.result.status === 'completed');
      const reads = await Promise.all([0, 1, 2].map(() => task('tasks/get', taskId)));
      const texts = reads.map(({ body }) => body.result.result.content[0].text);
      expect(texts).to.deep.equal(Array(3).fill(`${cluster.nodes[runner].name} crunched`));
    });

    it('is cancelled from another node: the handler on its node stops, and it stays cancelled', async () => {
      const { taskId } = await start('crunch', { ms: 60_000 });
      const cancelled = await task('tasks/cancel', taskId);
      expect(cancelled.body.result).to.deep.include({ resultType: 'complete' });
      await eventually('the task is cancelled', async () => (await task('tasks/get', taskId)).body.result.status === 'cancelled');
      const later = await Promise.all([0, 1, 2].map(() => task('tasks/get', taskId)));
      expect(later.map(({ body }) => body.result.status)).to.deep.equal(['cancelled', 'cancelled', 'cancelled']);
    });

    it('takes the answer to its question through whichever node the client reaches', async () => {
      const { taskId, runner } = await start('confirm', {});
      let asked: Record<string, unknown> = {};
      await eventually('the task asks', async () => {
        const { body } = await task('tasks/get', taskId);
        asked = body.result.inputRequests ?? {};
        return body.result.status === 'input_required';
      });
      const [key] = Object.keys(asked);
      const answered = await task('tasks/update', taskId, { inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } } });
      expect(answered.body.result).to.deep.include({ resultType: 'complete' });
      await eventually('the task completes', async () => (await task('tasks/get', taskId)).body.result.status === 'completed');
      const done = await task('tasks/get', taskId);
      expect(done.body.result.result.content[0].text).to.equal(`${cluster.nodes[runner].name} heard Ada`);
    });
  });

  context('when the node running a task is killed', () => {
    it('fails the task with a clear error once its lease lapses, on the nodes left', async () => {
      const { taskId, runner } = await start('crunch', { ms: 60_000 });
      await cluster.nodes[runner].kill();
      await eventually('the task fails', async () => (await task('tasks/get', taskId)).body.result?.status === 'failed', 15_000);
      const { body } = await task('tasks/get', taskId);
      expect(body.result.error).to.deep.include({ code: -32603 });
      expect(body.result.error.message).to.match(/stopped before the task ended/);
      expect(body.result).not.to.have.property('result');
    });
  });
});
