import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PhantomServer, Prompt, Resource, SILENT_DIAGNOSTICS, Tool, userText } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { connect } from 'phantom-mcp/testing';
import { connectHttp } from './support/sdk-clients';

/** Three of each listed kind, so a page size of 2 gives every list a second page. */
class Catalogue {
  @Tool({ description: 'a' }) alpha() { return 'a'; }
  @Tool({ description: 'b' }) beta() { return 'b'; }
  @Tool({ description: 'c' }) gamma() { return 'c'; }

  @Prompt({ description: 'a' }) first() { return userText('a'); }
  @Prompt({ description: 'b' }) second() { return userText('b'); }
  @Prompt({ description: 'c' }) third() { return userText('c'); }

  @Resource('cat://a', { description: 'a' }) a() { return 'a'; }
  @Resource('cat://b', { description: 'b' }) b() { return 'b'; }
  @Resource('cat://c', { description: 'c' }) c() { return 'c'; }

  @Resource('cat://x/{id}', { description: 'x' }) x({ id }: { id: string }) { return id; }
  @Resource('cat://y/{id}', { description: 'y' }) y({ id }: { id: string }) { return id; }
  @Resource('cat://z/{id}', { description: 'z' }) z({ id }: { id: string }) { return id; }
}

const catalogue = (cursorKey: string) => new PhantomServer({ name: 'catalogue', version: '1', providers: [Catalogue], pageSize: 2, cursorKey, diagnostics: SILENT_DIAGNOSTICS });

type Listed = { nextCursor?: string } & Record<string, unknown>;

/** Each list method through the official client, with the name of the array it answers. */
const LISTS: ReadonlyArray<{ method: string; items: string; list: (client: Client, cursor?: string) => Promise<Listed> }> = [
  { method: 'tools/list', items: 'tools', list: (client, cursor) => client.listTools(cursor === undefined ? {} : { cursor }) },
  { method: 'prompts/list', items: 'prompts', list: (client, cursor) => client.listPrompts(cursor === undefined ? {} : { cursor }) },
  { method: 'resources/list', items: 'resources', list: (client, cursor) => client.listResources(cursor === undefined ? {} : { cursor }) },
  { method: 'resources/templates/list', items: 'resourceTemplates', list: (client, cursor) => client.listResourceTemplates(cursor === undefined ? {} : { cursor }) },
];

const errorOf = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected an error'), (error: McpError) => error);

/** The cursor with the offset in its signed body changed to `offset`, its signature kept. */
function withOffset(cursor: string, offset: number): string {
  const [body, signature] = cursor.split('.');
  const text = Buffer.from(body, 'base64url').toString('utf8');
  const edited = text.replace(/:\d+$/, `:${offset}`);
  expect(edited, 'the cursor body names the list and the offset').not.to.equal(text);
  return `${Buffer.from(edited, 'utf8').toString('base64url')}.${signature}`;
}

/** The official client on each transport and era the server serves lists on. */
const CLIENTS: ReadonlyArray<{ name: string; open: (server: PhantomServer) => Promise<{ client: Client; close: () => Promise<void> }> }> = [
  {
    name: 'session era, in memory',
    open: async (server) => {
      const client = await connect(server);
      return { client, close: () => client.close() };
    },
  },
  {
    name: 'session era, Streamable HTTP',
    open: async (server) => {
      const listener: HttpListener = await server.listen({ port: 0 });
      const { client } = await connectHttp(listener.url);
      return { client, close: async () => { await client.close(); await listener.close(); } };
    },
  },
  {
    name: 'stateless era (2026-07-28), on a pipe',
    open: async (server) => {
      const client = await connect(server, { era: 'stateless' });
      return { client, close: () => client.close() };
    },
  },
];

describe('list cursors (signed, one list, one server)', () => {
  for (const { name, open } of CLIENTS) {
    context(`with the official client, ${name}`, () => {
      let server: PhantomServer;
      let other: PhantomServer;
      let client: Client;
      let otherClient: Client;
      let close: () => Promise<void>;
      let closeOther: () => Promise<void>;

      before(async () => {
        server = catalogue('this server');
        other = catalogue('another server');
        ({ client, close } = await open(server));
        ({ client: otherClient, close: closeOther } = await open(other));
      });

      after(async () => {
        await close();
        await closeOther();
        await server.close();
        await other.close();
      });

      for (const { method, items, list } of LISTS) {
        describe(method, () => {
          it('walks every page with the cursors it hands out', async () => {
            const firstPage = await list(client);
            expect(firstPage[items]).to.have.length(2);
            expect(firstPage.nextCursor).to.be.a('string');
            const secondPage = await list(client, firstPage.nextCursor);
            expect(secondPage[items]).to.have.length(1);
            expect(secondPage.nextCursor).to.equal(undefined);
          });

          const refused: Record<string, () => Promise<string>> = {
            'a forged cursor (not one the server signed)': async () => 'forged',
            'a forged cursor shaped like a signed one': async () => `${Buffer.from(`${items}:1`).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`,
            'a cursor whose signed offset was edited': async () => withOffset((await list(client)).nextCursor!, 1),
            'a cursor whose signature was edited': async () => {
              const cursor = (await list(client)).nextCursor!;
              return cursor.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
            },
            'a cursor another list handed out': async () => {
              const foreign = LISTS.find((entry) => entry.method !== method)!;
              return (await foreign.list(client)).nextCursor!;
            },
            'a cursor another server handed out for the same list': async () => (await list(otherClient)).nextCursor!,
          };
          for (const [what, cursorOf] of Object.entries(refused)) {
            context(`when the client sends ${what}`, () => {
              it('refuses it with -32602 Invalid cursor, and serves the next request', async () => {
                const cursor = await cursorOf();
                const error = await errorOf(list(client, cursor));
                expect(error.code).to.equal(-32602);
                expect(error.message).to.contain('Invalid cursor');
                expect((await list(client))[items]).to.have.length(2);
              });
            });
          }
        });
      }
    });
  }
});
