import 'reflect-metadata';
import { expect } from 'chai';
import { uniqueId } from '../../lib/core/unique-id';
import { openSse } from '../integration/support/raw-http';
import { call, meta, VERSION } from '../integration/support/stateless-client';
import { requireRedis, sharedRedis } from '../support/redis.fixture';
import { Cluster } from './support/cluster';

const text = (reply: { body: any }) => reply.body.result.content[0].text as string;

/** A `subscriptions/listen` stream through the proxy, read one message at a time. */
function listen(url: string, notifications: Record<string, unknown>) {
  return openSse(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'subscriptions/listen' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { _meta: meta(), notifications } }),
  });
}

describe('the stateless era (2026-07-28) on three replicas behind a round-robin proxy', function () {
  this.timeout(60_000);
  requireRedis();
  let cluster: Cluster;

  before(async () => {
    cluster = await new Cluster((await sharedRedis()).url, `stateless-cluster-${uniqueId()}:`).start();
  });

  after(async () => {
    await cluster?.stop();
  });

  /** The node the proxy sent the last request to. */
  const lastNode = () => cluster.nodes[cluster.proxy.routed[cluster.proxy.routed.length - 1].upstream].name;

  describe('tools/call', () => {
    context('when the retry of an input_required result lands on another node than the one that sealed its requestState', () => {
      it('accepts the state there and completes the call', async () => {
        const elicit = { elicitation: {} };
        const first = await call(cluster.url, 'tools/call', { _meta: meta(elicit), name: 'ask' });
        const sealedOn = lastNode();
        expect(first.body.result.resultType, JSON.stringify(first.body)).to.equal('input_required');
        const [key] = Object.keys(first.body.result.inputRequests);
        const retry = await call(cluster.url, 'tools/call', {
          _meta: meta(elicit), name: 'ask', inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.body.result.requestState,
        });
        const retriedOn = lastNode();
        expect(retriedOn, 'the retry went to another node').not.to.equal(sealedOn);
        expect(retry.body.error, JSON.stringify(retry.body.error)).to.equal(undefined);
        expect(text(retry)).to.equal(`${retriedOn} heard Ada`);
      });
    });
  });

  describe('tools/list', () => {
    context('when the next page is asked of another node than the one that made the cursor', () => {
      it('accepts the cursor there and serves that page', async () => {
        const first = await call(cluster.url, 'tools/list', { _meta: meta() });
        const pagedOn = lastNode();
        const cursor = first.body.result.nextCursor as string;
        expect(cursor, 'a second page').to.be.a('string');
        const second = await call(cluster.url, 'tools/list', { _meta: meta(), cursor });
        expect(lastNode(), 'the next page went to another node').not.to.equal(pagedOn);
        expect(second.body.error, JSON.stringify(second.body.error)).to.equal(undefined);
        const names = (reply: { body: any }) => reply.body.result.tools.map((tool: { name: string }) => tool.name) as string[];
        expect(names(second)).to.have.length.above(0);
        expect(names(second)).not.to.include.members(names(first));
      });
    });
  });

  describe('subscriptions/listen', () => {
    context('when a subscribed resource changes on another node than the one holding the stream', () => {
      it('hears notifications/resources/updated through the bus', async () => {
        const stream = await listen(cluster.url, { resourceSubscriptions: ['cluster://board'] });
        try {
          expect((await stream.next()).method).to.equal('notifications/subscriptions/acknowledged');
          const heldOn = lastNode();
          const touched = await call(cluster.url, 'tools/call', { _meta: meta(), name: 'touch' });
          expect(text(touched)).to.equal(`${lastNode()} touched the board`);
          expect(lastNode(), 'touched on another node').not.to.equal(heldOn);
          expect(await stream.next()).to.deep.equal({
            jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'cluster://board', _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
          });
        } finally {
          stream.close();
        }
      });
    });

    context('when a list changes on another node than the one holding the stream', () => {
      it('hears notifications/tools/list_changed through the bus', async () => {
        const stream = await listen(cluster.url, { toolsListChanged: true });
        try {
          expect((await stream.next()).method).to.equal('notifications/subscriptions/acknowledged');
          const heldOn = lastNode();
          const toggled = await call(cluster.url, 'tools/call', { _meta: meta(), name: 'toggle' });
          expect(text(toggled)).to.match(new RegExp(`^${lastNode()} (added|removed) spare$`));
          expect(lastNode(), 'changed on another node').not.to.equal(heldOn);
          expect(await stream.next()).to.deep.equal({
            jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
          });
        } finally {
          stream.close();
        }
      });
    });
  });
});
