import 'reflect-metadata';
import { expect } from 'chai';
import { IsString } from 'class-validator';
import { PassThrough } from 'node:stream';
import { Field, PhantomServer, Prompt, Resource, scopesVisibility, SILENT_DIAGNOSTICS, StdioTransport, Tool, userText, type Visibility } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { call, meta } from './support/stateless-client';
import { connectInMemory } from './support/sdk-clients';

class RegionArgs {
  @Field({ description: 'Region', header: 'Region' }) @IsString() region!: string;
}

class Catalogue {
  @Tool({ description: 'Visible to admins only', name: 'admin_route' })
  adminRoute(args: RegionArgs) { return args.region; }

  @Tool({ description: 'Needs a scope', name: 'admin_scoped_route', scopes: ['routes:admin'] })
  scopedRoute(args: RegionArgs) { return args.region; }

  @Tool({ description: 'Visible to everyone' })
  hello() { return 'hello'; }

  @Prompt({ description: 'Greets' })
  greeting() { return userText('hi'); }

  @Resource('cat://about', { description: 'About' })
  about() { return 'about'; }

  @Resource('cat://items/{id}', { description: 'Items' })
  item({ id }: { id: string }) { return id; }
}

const HIDE_ADMIN: Visibility = (item) => !(item.kind === 'tool' && item.name.startsWith('admin_'));

const LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'] as const;

describe('the visibility rule (PhantomServer option visible)', () => {
  context('in the stateless era over HTTP', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    async function serve(visible?: Visibility): Promise<string> {
      server = new PhantomServer({ name: 'v', version: '1', providers: [Catalogue], diagnostics: SILENT_DIAGNOSTICS, visible });
      listener = await server.listen({ port: 0 });
      return listener.url;
    }

    afterEach(async () => {
      await listener.close();
      await server.close();
    });

    context('when a call names a hidden tool without the headers its fields ask for', () => {
      it('answers exactly as for a tool that does not exist: the header checks do not reveal it', async () => {
        const url = await serve(HIDE_ADMIN);
        const hidden = await call(url, 'tools/call', { _meta: meta(), name: 'admin_route', arguments: { region: 'eu' } });
        const missing = await call(url, 'tools/call', { _meta: meta(), name: 'no_such_tool', arguments: { region: 'eu' } });
        expect(hidden.body.error).to.deep.equal({ code: -32602, message: 'Unknown tool: admin_route' });
        expect(missing.body.error).to.deep.equal({ code: -32602, message: 'Unknown tool: no_such_tool' });
        expect(hidden.status).to.equal(missing.status);
      });
    });

    context('when scopesVisibility() hides a scoped tool from a caller without its scope, and the call lacks its headers', () => {
      it('answers exactly as for a tool that does not exist: the header checks do not reveal it', async () => {
        const url = await serve(scopesVisibility());
        const hidden = await call(url, 'tools/call', { _meta: meta(), name: 'admin_scoped_route', arguments: { region: 'eu' } });
        expect(hidden.body.error).to.deep.equal({ code: -32602, message: 'Unknown tool: admin_scoped_route' });
        expect(hidden.status).to.equal(200);
      });
    });

    context('when a rule is set', () => {
      for (const method of LISTS) {
        it(`marks ${method} results private, since what they hold depends on the caller`, async () => {
          const url = await serve(HIDE_ADMIN);
          const listed = await call(url, method, { _meta: meta() });
          expect(listed.body.result.cacheScope).to.equal('private');
        });
      }
    });

    context('when no rule is set', () => {
      it('leaves the lists public (the default), so shared caches may keep them', async () => {
        const url = await serve();
        for (const method of LISTS) expect((await call(url, method, { _meta: meta() })).body.result.cacheScope, method).to.equal('public');
      });
    });
  });

  context('in the stateless era over stdio', () => {
    async function listOverStdio(visible?: Visibility): Promise<any> {
      const input = new PassThrough();
      const output = new PassThrough();
      const server = new PhantomServer({ name: 'v', version: '1', providers: [Catalogue], diagnostics: SILENT_DIAGNOSTICS, visible });
      const connection = await server.connect(new StdioTransport({ input, output }));
      input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } })}\n`);
      await connection.done;
      await server.close();
      return JSON.parse(String(output.read()).trim());
    }

    context('when a rule is set', () => {
      it('marks tools/list private and leaves the hidden tool out', async () => {
        const reply = await listOverStdio(HIDE_ADMIN);
        expect(reply.result.cacheScope).to.equal('private');
        expect(reply.result.tools.map((tool: { name: string }) => tool.name)).to.deep.equal(['hello']);
      });
    });

    context('when no rule is set', () => {
      it('leaves tools/list public', async () => {
        expect((await listOverStdio()).result.cacheScope).to.equal('public');
      });
    });
  });

  context('in completion/complete (session era, the official client)', () => {
    class GreetArgs {
      @Field({ description: 'Whom to greet' }) @IsString() who!: string;
    }

    class Completed {
      @Prompt({ description: 'Greets someone', complete: { who: ['ada', 'alan'] } })
      greet({ who }: GreetArgs) { return userText(`hi ${who}`); }

      @Resource('docs://{name}', { description: 'Documents', complete: { name: ['readme', 'roadmap'] } })
      doc({ name }: { name: string }) { return name; }
    }

    const HIDE_COMPLETED: Visibility = (item) => item.kind === 'tool' || item.kind === 'resource';
    let server: PhantomServer;
    let client: Client;
    const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected an error'), (error: McpError) => ({ code: error.code, message: error.message }));

    beforeEach(async () => {
      server = new PhantomServer({ name: 'v', version: '1', providers: [Completed], diagnostics: SILENT_DIAGNOSTICS, visible: HIDE_COMPLETED });
      client = await connectInMemory(server);
    });

    afterEach(async () => {
      await client.close();
      await server.close();
    });

    context('when the ref names a hidden prompt', () => {
      it('refuses it as an unknown prompt', async () => {
        const hidden = await failure(client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'a' } }));
        const missing = await failure(client.complete({ ref: { type: 'ref/prompt', name: 'nobody' }, argument: { name: 'who', value: 'a' } }));
        expect(hidden).to.deep.equal({ ...missing, message: missing.message.replace('nobody', 'greet') });
      });
    });

    context('when the ref names a hidden template', () => {
      it('refuses it as an unknown template', async () => {
        const hidden = await failure(client.complete({ ref: { type: 'ref/resource', uri: 'docs://{name}' }, argument: { name: 'name', value: 'r' } }));
        const missing = await failure(client.complete({ ref: { type: 'ref/resource', uri: 'none://{name}' }, argument: { name: 'name', value: 'r' } }));
        expect(hidden).to.deep.equal({ ...missing, message: missing.message.replace('none://{name}', 'docs://{name}') });
      });
    });

    context('when the rule lets the caller see them', () => {
      it('completes both', async () => {
        await client.close();
        await server.close();
        server = new PhantomServer({ name: 'v', version: '1', providers: [Completed], diagnostics: SILENT_DIAGNOSTICS, visible: () => true });
        client = await connectInMemory(server);
        expect((await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'a' } })).completion.values).to.deep.equal(['ada', 'alan']);
        expect((await client.complete({ ref: { type: 'ref/resource', uri: 'docs://{name}' }, argument: { name: 'name', value: 'r' } })).completion.values).to.deep.equal(['readme', 'roadmap']);
      });
    });
  });
});
