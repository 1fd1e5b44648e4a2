import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { IsString } from 'class-validator';
import { container as rootContainer, inject, injectable } from 'tsyringe';
import {
  Context, ContextKey, DefinitionError, Field, ForbiddenError, HiddenError, InMemoryTransport, PhantomServer, Prompt, RateLimitGuard, RequestLoggingInterceptor, Resource, SILENT_DIAGNOSTICS, Tool, UseGuards, UseInterceptors, userText, type CallHandler, type CanActivate, type Diagnostics, type ExecutionContext, type Interceptor,
} from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { newClient } from './support/sdk-clients';
import { call, meta } from './support/stateless-client';

/** Every guard and interceptor of the fixture writes here what it saw, in order. */
const seen: string[] = [];

function recordingGuard(name: string): CanActivate {
  return { canActivate: ({ method, target }) => { seen.push(`guard ${name} ${method}${target ? ` ${target}` : ''}`); return true; } };
}

function recordingInterceptor(name: string): Interceptor {
  return {
    async intercept(_call: ExecutionContext, next: CallHandler) {
      seen.push(`before ${name}`);
      const value = await next();
      seen.push(`after ${name}`);
      return value;
    },
  };
}

/** A service of the application, registered in the container the server is made from. */
@injectable()
class Acl {
  constructor(@inject('admins') private readonly admins: readonly string[]) {}
  isAdmin(principal: unknown): boolean {
    return this.admins.includes((principal as { sub?: string } | undefined)?.sub ?? '');
  }
}

/** Injected with the service: the guard is built by the server's container. */
@injectable()
class AdminOnly implements CanActivate {
  constructor(private readonly acl: Acl) {}
  canActivate({ context }: ExecutionContext): boolean {
    return this.acl.isAdmin(context.principal);
  }
}

/** Guests do not learn that the tool exists. */
class HiddenFromGuests implements CanActivate {
  canActivate({ context }: ExecutionContext): boolean {
    if (context.principal === undefined) throw new HiddenError();
    return true;
  }
}

class NeedsScope implements CanActivate {
  canActivate(): boolean {
    throw new ForbiddenError('This needs the notes:write scope');
  }
}

/** Replaces whatever the handler returned. */
class Shout implements Interceptor {
  async intercept(_call: ExecutionContext, next: CallHandler): Promise<unknown> {
    return `${String(await next()).toUpperCase()}!`;
  }
}

const CALLER = new ContextKey<string>('caller');

/** Stores per-request data the handler reads. */
class NameTheCaller implements CanActivate {
  canActivate({ context }: ExecutionContext): boolean {
    context.set(CALLER, (context.principal as { sub?: string } | undefined)?.sub ?? 'guest');
    return true;
  }
}

class EchoArgs {
  @Field({ description: 'What to echo' }) @IsString() text!: string;
}

@UseGuards(recordingGuard('class'))
@UseInterceptors(recordingInterceptor('class'))
class Workshop {
  @UseGuards(recordingGuard('method'))
  @UseInterceptors(recordingInterceptor('method'))
  @Tool({ description: 'Echoes' })
  echo(args: EchoArgs) { seen.push('handler'); return args.text; }

  @UseInterceptors(Shout)
  @Tool({ description: 'Echoes, loudly' })
  shout(args: EchoArgs) { return args.text; }

  @UseGuards(AdminOnly)
  @Tool({ description: 'Drops the cache' })
  dropCache() { return 'dropped'; }

  @UseGuards(HiddenFromGuests)
  @Tool({ description: 'Members only' })
  members() { return 'welcome'; }

  @UseGuards(NeedsScope)
  @Tool({ description: 'Writes a note' })
  write() { return 'written'; }

  @UseGuards(NameTheCaller)
  @Tool({ description: 'Says who called' })
  whoami(_args: object, ctx: Context) { return `hello ${ctx.get(CALLER)}`; }

  @UseGuards(HiddenFromGuests)
  @Resource('notes://secret', { description: 'Members only' })
  secret() { return 'secret'; }

  @UseInterceptors(Shout)
  @Prompt({ description: 'Greets' })
  greet() { return userText('hi'); }
}

function makeServer(options: { diagnostics?: Diagnostics } = {}): PhantomServer {
  const container = rootContainer.createChildContainer();
  container.registerInstance('admins', ['ada']);
  return new PhantomServer({ name: 'workshop', version: '1', providers: [Workshop], container, diagnostics: options.diagnostics ?? SILENT_DIAGNOSTICS });
}

/** The official client in-process, the connection authenticated as `principal`. */
async function connect(server: PhantomServer, principal?: unknown): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide, principal);
  const client = newClient();
  await client.connect(clientSide);
  return client;
}

function failureOf(promise: Promise<unknown>): Promise<McpError> {
  return promise.then(() => { throw new Error('expected the call to fail'); }, (error: McpError) => error);
}

const textOf = (result: any): string => result.content[0].text;

describe('the operation pipeline, with the official SDK client', () => {
  beforeEach(() => { seen.length = 0; });

  describe('guards', () => {
    context('when a guard refuses', () => {
      it('answers -32003 with the guard\'s reason, and the handler does not run', async () => {
        const client = await connect(makeServer(), { sub: 'bob' });
        const failure = await failureOf(client.callTool({ name: 'write' }));
        expect(failure.code).to.equal(-32003);
        expect(failure.message).to.include('This needs the notes:write scope');
        await client.close();
      });
    });

    context('when a guard is built by the server\'s container', () => {
      it('gets its services injected and decides with them', async () => {
        const server = makeServer();
        const bob = await connect(server, { sub: 'bob' });
        const ada = await connect(server, { sub: 'ada' });
        const failure = await failureOf(bob.callTool({ name: 'dropCache' }));
        expect(failure.code).to.equal(-32003);
        expect(failure.message).to.include('Forbidden: tools/call of dropCache was refused by a guard');
        expect(textOf(await ada.callTool({ name: 'dropCache' }))).to.equal('dropped');
        await bob.close();
        await ada.close();
      });
    });

    context('when a guard hides the target', () => {
      it('answers a hidden tool exactly as a tool that does not exist', async () => {
        const guest = await connect(makeServer());
        const hidden = await failureOf(guest.callTool({ name: 'members' }));
        const missing = await failureOf(guest.callTool({ name: 'nobody' }));
        expect({ code: hidden.code, message: hidden.message.replace('members', 'X') }).to.deep.equal({ code: missing.code, message: missing.message.replace('nobody', 'X') });
        expect(hidden.code).to.equal(-32602);
        expect(textOf(await (await connect(makeServer(), { sub: 'bob' })).callTool({ name: 'members' }))).to.equal('welcome');
        await guest.close();
      });

      it('answers a hidden resource as resource not found', async () => {
        const guest = await connect(makeServer());
        const failure = await failureOf(guest.readResource({ uri: 'notes://secret' }));
        expect(failure.code).to.equal(-32002);
        expect(failure.data).to.deep.equal({ uri: 'notes://secret' });
        await guest.close();
      });
    });

    context('when a guard stores per-request data', () => {
      it('reaches the handler through its context', async () => {
        const client = await connect(makeServer(), { sub: 'ada' });
        expect(textOf(await client.callTool({ name: 'whoami' }))).to.equal('hello ada');
        await client.close();
      });
    });
  });

  describe('interceptors', () => {
    it('replace what a tool returns, before it is made a result', async () => {
      const client = await connect(makeServer());
      expect(await client.callTool({ name: 'shout', arguments: { text: 'hello' } })).to.deep.equal({ content: [{ type: 'text', text: 'HELLO!' }] });
      await client.close();
    });

    it('do not run for arguments the pipe refuses: the tool answers with its isError result', async () => {
      const client = await connect(makeServer());
      const result = await client.callTool({ name: 'echo', arguments: { text: 42 } });
      expect(result.isError).to.equal(true);
      expect(seen).to.deep.equal(['guard class tools/call echo', 'guard method tools/call echo']);
      await client.close();
    });
  });

  describe('ordering', () => {
    it('runs the server\'s members, then the class\'s, then the method\'s; guards before interceptors', async () => {
      const server = makeServer();
      server.use(recordingGuard('server'), recordingInterceptor('server'));
      const client = await connect(server);
      seen.length = 0;
      await client.callTool({ name: 'echo', arguments: { text: 'x' } });
      expect(seen).to.deep.equal([
        'guard server tools/call echo', 'guard class tools/call echo', 'guard method tools/call echo',
        'before server', 'before class', 'before method', 'handler', 'after method', 'after class', 'after server',
      ]);
      await client.close();
    });
  });

  describe('server.use', () => {
    it('takes every operation through the server\'s members: lists, ping, logging, subscriptions, prompts', async () => {
      const server = makeServer();
      server.use(recordingGuard('server'));
      const client = await connect(server);
      seen.length = 0;
      await client.listTools();
      await client.ping();
      await client.setLoggingLevel('error');
      await client.subscribeResource({ uri: 'notes://secret' }).catch(() => undefined);
      await client.getPrompt({ name: 'greet' });
      expect(seen).to.deep.equal([
        'guard server tools/list', 'guard server ping', 'guard server logging/setLevel', 'guard server resources/subscribe',
        'guard server prompts/get greet', 'guard class prompts/get greet', 'before class', 'after class',
      ]);
      await client.close();
    });

    it('refuses ping too when a server guard says so', async () => {
      const server = makeServer();
      server.use({ canActivate: ({ method }: ExecutionContext) => method !== 'ping' });
      const client = await connect(server);
      expect((await failureOf(client.ping())).code).to.equal(-32003);
      await client.close();
    });

    it('refuses a class it cannot build at once, before serving anything', () => {
      class Unregistered {}
      @injectable()
      class NeedsUnregistered implements CanActivate {
        constructor(@inject('nothing') readonly nothing: Unregistered) {}
        canActivate(): boolean { return true; }
      }
      expect(() => makeServer().use(NeedsUnregistered)).to.throw(DefinitionError, /NeedsUnregistered: constructor parameter 0 \(nothing\) asks for "nothing"/);
    });
  });

  describe('RateLimitGuard', () => {
    it('refuses the calls beyond the bucket with -32029 and when to retry, per session', async () => {
      const server = makeServer();
      server.use(new RateLimitGuard({ burst: 2, perSecond: 0.001 }));
      const first = await connect(server);
      await first.callTool({ name: 'shout', arguments: { text: 'a' } });
      await first.listTools();
      const failure = await failureOf(first.callTool({ name: 'shout', arguments: { text: 'a' } }));
      expect(failure.code).to.equal(-32029);
      expect(failure.data).to.have.property('retryAfterMs').that.is.above(0);
      await first.ping();                                     // not counted
      const second = await connect(server);                   // a session of its own
      expect(textOf(await second.callTool({ name: 'shout', arguments: { text: 'b' } }))).to.equal('B!');
      await first.close();
      await second.close();
    });
  });

  describe('RequestLoggingInterceptor', () => {
    it('writes one line per operation to the server\'s diagnostics', async () => {
      const lines: string[] = [];
      const server = makeServer({ diagnostics: { error: () => {}, warn: () => {}, info: (line) => lines.push(line) } });
      server.use(RequestLoggingInterceptor);
      const client = await connect(server);
      lines.length = 0;
      await client.callTool({ name: 'shout', arguments: { text: 'a' } });
      await client.ping();
      expect(lines).to.have.length(2);
      expect(lines[0]).to.match(/^tools\/call shout \(session [0-9a-f]{8}\) ok in \d+\.\d ms$/);
      expect(lines[1]).to.match(/^ping \(session [0-9a-f]{8}\) ok in /);
      await client.close();
    });
  });

  describe('in the stateless era over HTTP', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    before(async () => {
      server = makeServer();
      server.use(new RateLimitGuard({ burst: 3, perSecond: 0.001, skip: ({ target }) => target !== 'shout' }));
      server.use({ canActivate: ({ method, context }: ExecutionContext) => method !== 'server/discover' || context.principal !== undefined });
      server.use({ canActivate: ({ method }: ExecutionContext) => { if (method === 'prompts/list') throw new HiddenError(); return true; } });
      listener = await server.listen({ port: 0 });
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    it('answers a guard\'s refusal with 403 and -32003', async () => {
      const reply = await call(listener.url, 'tools/call', { name: 'write', _meta: meta() });
      expect(reply.status).to.equal(403);
      expect(reply.body.error).to.deep.include({ code: -32003, message: 'This needs the notes:write scope' });
    });

    it('answers a hidden tool as an unknown one, with 200 and -32602', async () => {
      const reply = await call(listener.url, 'tools/call', { name: 'members', _meta: meta() });
      expect(reply.status).to.equal(200);
      expect(reply.body.error).to.deep.equal({ code: -32602, message: 'Unknown tool: members' });
    });

    it('answers a method a guard hides as an unknown method, with 404 and -32601', async () => {
      const reply = await call(listener.url, 'prompts/list', { _meta: meta() });
      expect(reply.status).to.equal(404);
      expect(reply.body.error).to.deep.equal({ code: -32601, message: 'Method not found: prompts/list' });
    });

    it('takes server/discover through the server\'s guards', async () => {
      const reply = await call(listener.url, 'server/discover', { _meta: meta() });
      expect(reply.status).to.equal(403);
      expect(reply.body.error.code).to.equal(-32003);
    });

    it('answers the rate limit with 429 and -32029', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await call(listener.url, 'tools/call', { name: 'shout', arguments: { text: 'a' }, _meta: meta() })).status);
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
      const reply = await call(listener.url, 'tools/call', { name: 'shout', arguments: { text: 'a' }, _meta: meta() });
      expect(reply.body.error).to.have.property('code', -32029);
    });
  });
});
