import 'reflect-metadata';
import { expect } from 'chai';
import { z } from 'zod';
import { IsString } from 'class-validator';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { injectable } from 'tsyringe';
import { Context, DefinitionError, Field, PhantomServer, ProtocolError, SILENT_DIAGNOSTICS, Tool, type ExecutionContext } from '../../lib';
import type { Extension, ExtensionHost } from '../../lib/entries/extensions';
import type { HttpListener } from '../../lib/entries/http';
import { openSse } from './support/raw-http';
import { connectHttp, connectInMemory } from './support/sdk-clients';
import { call, meta, VERSION } from './support/stateless-client';
import { connectV2, type V2Era } from './support/sdk-v2-clients';

const AUDIT = 'com.example/audit';
const STRICT = 'com.example/strict';
const ANY_RESULT = z.object({}).passthrough();

class Tools {
  @Tool({ description: 'Echo' })
  echo() { return 'ok'; }
}

/** A service the guard is built with: guards named as classes come from the server's container. */
@injectable()
class AuditPolicy {
  readonly allowed = new Set(['auditor']);
}

/** Lets a call through only when the request's `_meta.role` is one the policy allows. */
@injectable()
class AuditorGuard {
  constructor(private readonly policy: AuditPolicy) {}
  canActivate({ context, method }: ExecutionContext): boolean {
    seenByGuard.push(method);
    return this.policy.allowed.has(String(context.meta?.role));
  }
}

let seenByGuard: string[] = [];

function auditExtension(log: string[]): Extension {
  return {
    id: AUDIT,
    settings: (negotiation) => ({ retentionDays: 30, era: negotiation.era }),
    methods: {
      'audit/recent': {
        use: [AuditorGuard],
        cache: { ttlMs: 5_000, scope: 'private' },
        handle: async (params, ctx) => {
          log.push(`recent ${ctx.era}`);
          if (params.limit !== undefined && typeof params.limit !== 'number') throw ProtocolError.invalidParams('"limit" must be a number');
          return { entries: ['one', 'two'].slice(0, (params.limit as number | undefined) ?? 2) };
        },
      },
    },
  };
}

/** Served only to clients that declare it, and only in the stateless era. */
const strictExtension: Extension = {
  id: STRICT,
  clientMustDeclare: true,
  settings: (negotiation) => (negotiation.era === 'stateless' ? {} : undefined),
  methods: { 'strict/ping': { handle: async () => ({ pong: true }) } },
};

describe('extensions: a user-defined extension through the official client, in both eras', () => {
  let server: PhantomServer;
  let listener: HttpListener;
  let log: string[];

  beforeEach(async () => {
    log = [];
    seenByGuard = [];
    server = new PhantomServer({
      name: 'ext', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS, extensions: [auditExtension(log), strictExtension],
    });
    listener = await server.listen({ port: 0 });
  });

  afterEach(async () => {
    await listener.close();
    await server.close();
  });

  describe('the session era (official SDK v1 client)', () => {
    let client: Client;
    afterEach(async () => client?.close());

    it('advertises each extension under capabilities.extensions at initialize, with the settings for this negotiation', async () => {
      ({ client } = await connectHttp(`${listener.url}`));
      const capabilities = client.getServerCapabilities() as Record<string, any>;
      expect(capabilities.extensions).to.deep.equal({ [AUDIT]: { retentionDays: 30, era: 'session' } });
    });

    it('serves the extension method through its guard (built from the container), and refuses when the guard says no', async () => {
      client = await connectInMemory(server);
      const allowed = await client.request({ method: 'audit/recent', params: { limit: 1, _meta: { role: 'auditor' } } } as never, ANY_RESULT);
      expect(allowed).to.deep.equal({ entries: ['one'] });
      expect(log).to.deep.equal(['recent session']);
      const refused = await client.request({ method: 'audit/recent', params: {} } as never, ANY_RESULT).then(() => undefined, (error) => error);
      expect(refused?.code).to.equal(-32003);
      expect(seenByGuard).to.deep.equal(['audit/recent', 'audit/recent']);
      expect(log).to.have.length(1);
    });

    it('answers invalid params from the handler as -32602 and goes on serving', async () => {
      client = await connectInMemory(server);
      const error = await client.request({ method: 'audit/recent', params: { limit: 'x', _meta: { role: 'auditor' } } } as never, ANY_RESULT).then(() => undefined, (e) => e);
      expect(error?.code).to.equal(-32602);
      expect(await client.callTool({ name: 'echo', arguments: {} })).to.have.nested.property('content[0].text', 'ok');
    });

    it('does not serve an extension that advertises nothing to this client: method not found', async () => {
      client = await connectInMemory(server);
      const error = await client.request({ method: 'strict/ping', params: {} } as never, ANY_RESULT).then(() => undefined, (e) => e);
      expect(error?.code).to.equal(-32601);
    });
  });

  describe('the stateless era (2026-07-28)', () => {
    it('advertises the extensions in server/discover', async () => {
      const reply = await call(listener.url, 'server/discover', { _meta: meta() });
      expect(reply.body.result.capabilities.extensions).to.deep.equal({ [AUDIT]: { retentionDays: 30, era: 'stateless' }, [STRICT]: {} });
    });

    it('serves the method with resultType, the server _meta and the caching hint', async () => {
      const reply = await call(listener.url, 'audit/recent', { _meta: { ...meta(), role: 'auditor' } });
      expect(reply.status).to.equal(200);
      expect(reply.body.result).to.include({ resultType: 'complete', ttlMs: 5_000, cacheScope: 'private' });
      expect(reply.body.result.entries).to.deep.equal(['one', 'two']);
      expect(reply.body.result._meta).to.have.property('io.modelcontextprotocol/serverInfo');
      expect(log).to.deep.equal(['recent stateless']);
    });

    it('refuses a guard-refused call as the pipeline refuses any other', async () => {
      const reply = await call(listener.url, 'audit/recent', { _meta: meta() });
      expect(reply.body.error.code).to.equal(-32003);
      expect(log).to.deep.equal([]);
    });

    it('refuses the method of an extension the request must declare and did not (-32021, naming it), and serves it once declared', async () => {
      const missing = await call(listener.url, 'strict/ping', { _meta: meta() });
      expect(missing.body.error.code).to.equal(-32021);
      expect(missing.body.error.data).to.deep.equal({ requiredCapabilities: { extensions: { [STRICT]: {} } } });
      const declared = await call(listener.url, 'strict/ping', { _meta: meta({ extensions: { [STRICT]: {} } }) });
      expect(declared.body.result).to.include({ pong: true, resultType: 'complete' });
    });
  });

  describe('the official SDK v2 client, in either era', () => {
    for (const era of ['stateless', 'session'] as V2Era[]) {
      it(`negotiates the extension and calls its method through the guard (${era})`, async () => {
        const client = await connectV2(listener.url, era);
        try {
          const extensions = (client.getServerCapabilities() as Record<string, any>).extensions;
          expect(extensions[AUDIT]).to.deep.equal({ retentionDays: 30, era });
          const result = await client.request({ method: 'audit/recent', params: { limit: 1, _meta: { role: 'auditor' } } } as never, ANY_RESULT as never) as Record<string, unknown>;
          expect(result.entries).to.deep.equal(['one']);
          const refused = await client.request({ method: 'audit/recent', params: {} } as never, ANY_RESULT as never).then(() => undefined, (error) => error);
          // The stateless era answers a guard's refusal with HTTP 403, whose JSON-RPC body the v2 client
          // hands over as the error's text (it reads bodies in-band only on 400).
          if (era === 'session') expect(refused?.code).to.equal(-32003);
          else expect(refused?.data).to.include({ status: 403 }).and.satisfy((data: { text: string }) => JSON.parse(data.text).error.code === -32003);
          expect(log).to.deep.equal([`recent ${era}`]);
        } finally {
          await client.close();
        }
      });
    }
  });
});

describe('extensions: scopes on a method, checked before any guard', () => {
  const token = (scopes: string[]) => ({ subject: 'u1', issuer: 'https://as.example', scopes, audience: ['mcp'], claims: {} });
  let guardRan = 0;
  const server = new PhantomServer({
    name: 'scoped', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS,
    extensions: [{
      id: 'com.example/scoped',
      methods: { 'scoped/read': { scopes: ['audit:read'], use: [{ canActivate: () => { guardRan += 1; return true; } }], handle: async () => ({ ok: true }) } },
    }],
  });
  after(() => server.close());

  it('refuses a caller lacking the scopes with InsufficientScopeError naming them, before the guard runs', async () => {
    const refused = await server.handle('scoped/read', {}, new Context({ principal: token(['notes:read']) }));
    expect(refused).to.have.nested.property('error.code', -32003);
    expect((refused as { error: { data: unknown } }).error.data).to.deep.include({ requiredScopes: ['audit:read'], missingScopes: ['audit:read'] });
    expect(guardRan).to.equal(0);
    const served = await server.handle('scoped/read', {}, new Context({ principal: token(['audit:read']) }));
    expect(served).to.deep.equal({ result: { ok: true } });
    expect(guardRan).to.equal(1);
  });
});

describe('extensions: wiring checked at construction, every problem at once', () => {
  it('refuses a bad id, a method the protocol serves, one two extensions claim, and a member that is neither guard nor interceptor', () => {
    const handle = async () => ({});
    const build = () => new PhantomServer({
      name: 'bad', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS,
      extensions: [
        { id: 'no-slash', methods: { 'tools/call': { handle } } },
        { id: 'com.example/a', methods: { 'shared/method': { handle } } },
        { id: 'com.example/b', methods: { 'shared/method': { handle, use: [{ notAGuard: true } as never] } } },
      ],
    });
    expect(build).to.throw(DefinitionError).that.satisfies((error: DefinitionError) => {
      expect(error.problems).to.have.length(4);
      expect(error.problems.join('\n')).to.include('"vendor-prefix/name"').and.include('"tools/call": the protocol serves it already')
        .and.include('extension com.example/a serves it already').and.include('takes guards and interceptors');
      return true;
    });
  });
});

describe('extensions: the tasks extension is one of them', () => {
  it('holds its id and its methods as any extension does: another taking them fails at construction; the 2025-11-25 task methods stay the protocol\'s', () => {
    const handle = async () => ({});
    const build = () => new PhantomServer({
      name: 'bad', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS,
      extensions: [
        { id: 'io.modelcontextprotocol/tasks' },
        { id: 'com.example/tasks', methods: { 'tasks/get': { handle }, 'tasks/result': { handle } }, backgroundCalls: { begin: () => undefined } },
      ],
    });
    expect(build).to.throw(DefinitionError).that.satisfies((error: DefinitionError) => {
      expect(error.problems.join('\n')).to.include('extension io.modelcontextprotocol/tasks: declared twice')
        .and.include('"tasks/get": extension io.modelcontextprotocol/tasks serves it already')
        .and.include('"tasks/result": the protocol serves it already')
        .and.include('backgroundCalls: extension io.modelcontextprotocol/tasks runs calls in the background already');
      return true;
    });
  });

  it('enters the operation pipeline as an extension method, in the stateless era', async () => {
    const kinds: string[] = [];
    const server = new PhantomServer({ name: 'tasks', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS });
    server.use({ canActivate: ({ kind, method }: ExecutionContext) => (kinds.push(`${method} ${kind}`), true) });
    class TaskTools {
      @Tool({ description: 'May run as a task', task: 'optional' })
      slow() { return 'done'; }
    }
    server.add(TaskTools);
    const listener = await server.listen({ port: 0 });
    try {
      const declaring = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
      const reply = await call(listener.url, 'tasks/get', { _meta: meta(declaring), taskId: 'none' }, { 'mcp-name': 'none' });
      expect(reply.body.error.code).to.equal(-32602);
      expect(kinds).to.deep.equal(['tasks/get extension']);
    } finally {
      await listener.close();
      await server.close();
    }
  });
});

describe('extensions: a key of their own in the subscriptions/listen filter (2026-07-28)', () => {
  const JOBS = 'com.example/jobs';
  let host: ExtensionHost | undefined;
  const jobs: Extension = {
    id: JOBS,
    listenFilter: {
      key: 'jobIds',
      accept: (asked) => {
        if (!Array.isArray(asked) || !asked.every((id) => typeof id === 'string')) throw ProtocolError.invalidParams('"notifications.jobIds" must be an array of strings');
        return asked as string[];
      },
    },
    setup: (given) => void (host = given),
    methods: {
      'jobs/touch': {
        handle: async (params) => {
          const jobId = String(params.jobId);
          const listened = host!.isListenedFor(jobId);
          host!.notifyListeners(jobId, 'notifications/jobs', { jobId }, (principal) => principal === undefined);
          return { listened };
        },
      },
    },
  };
  let server: PhantomServer;
  let listener: HttpListener;

  function listen(notifications: Record<string, unknown>) {
    return openSse(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'sub-1', method: 'subscriptions/listen', params: { _meta: meta(), notifications } }),
    });
  }

  beforeEach(async () => {
    server = new PhantomServer({ name: 'jobs', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS, extensions: [jobs] });
    listener = await server.listen({ port: 0 });
  });

  afterEach(async () => {
    await listener.close();
    await server.close();
  });

  it('acknowledges the ids under its key, and tells the streams naming an id what the extension announces', async () => {
    const stream = await listen({ jobIds: ['j1', 'j1'] });
    try {
      const acknowledged = await stream.next();
      expect(acknowledged.params.notifications).to.deep.equal({ jobIds: ['j1'] });
      const touched = await call(listener.url, 'jobs/touch', { _meta: meta(), jobId: 'j1' });
      expect(touched.body.result).to.include({ listened: true });
      const heard = await stream.next();
      expect(heard).to.deep.include({ method: 'notifications/jobs' });
      expect(heard.params).to.deep.equal({ jobId: 'j1', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } });
      const other = await call(listener.url, 'jobs/touch', { _meta: meta(), jobId: 'j2' });
      expect(other.body.result).to.include({ listened: false });
    } finally {
      stream.close();
    }
  });

  it('refuses a stream whose value under the key the extension refuses (-32602)', async () => {
    const refused = await call(listener.url, 'subscriptions/listen', { _meta: meta(), notifications: { jobIds: 'j1' } });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.deep.include({ code: -32602, message: '"notifications.jobIds" must be an array of strings' });
  });

  it('fails at construction for a key the protocol\'s filter or another extension has', () => {
    const accept = () => [];
    const build = () => new PhantomServer({
      name: 'bad', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS,
      extensions: [{ id: 'com.example/a', listenFilter: { key: 'resourceSubscriptions', accept } }, { id: 'com.example/b', listenFilter: { key: 'taskIds', accept } }],
    });
    expect(build).to.throw(DefinitionError).that.satisfies((error: DefinitionError) => {
      expect(error.problems.join('\n')).to.include('the protocol\'s filter has "resourceSubscriptions" already')
        .and.include('extension io.modelcontextprotocol/tasks adds "taskIds" already');
      return true;
    });
  });
});

describe('extensions: what an extension requires, checked once every extension is set up', () => {
  it('fails start() with a DefinitionError naming each capability the server does not serve', async () => {
    const server = new PhantomServer({
      name: 'needy', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS,
      extensions: [{ id: 'com.example/needs', requires: ['resources', 'prompts', 'tools'] }],
    });
    const error = await server.start().then(() => undefined, (e) => e);
    expect(error).to.be.instanceOf(DefinitionError);
    expect(error.problems).to.deep.equal([
      'extension com.example/needs: requires the resources capability, and the server serves no resources',
      'extension com.example/needs: requires the prompts capability, and the server serves no prompts',
    ]);
    await server.close();
  });
});

describe('extensions: a tool hook, what each client sees of a tool', () => {
  class Catalog {
    @Tool({ description: 'Public' })
    open() { return 'open'; }

    @Tool({ description: 'Only for clients that declare com.example/beta' })
    beta_preview() { return 'preview'; }
  }

  /** Hides beta_* tools from clients that did not declare it; tags the others. */
  const beta: Extension = {
    id: 'com.example/beta',
    tool: (tool, negotiation) => {
      const declared = Object.hasOwn((negotiation.clientCapabilities as { extensions?: object }).extensions ?? {}, 'com.example/beta');
      if (tool.name.startsWith('beta_') && !declared) return undefined;
      return { ...tool.descriptor, _meta: { ...tool.descriptor._meta, 'com.example/beta': { owner: tool.owner.name, member: tool.member } } };
    },
  };
  /** Asked after `beta`: sees what it returned. */
  const seenAfter: string[] = [];
  const after: Extension = {
    id: 'com.example/after',
    tool: (tool) => {
      seenAfter.push(`${tool.name}:${JSON.stringify(tool.descriptor._meta)}`);
      return tool.descriptor;
    },
  };

  let server: PhantomServer;
  let listener: HttpListener;

  beforeEach(async () => {
    seenAfter.length = 0;
    server = new PhantomServer({ name: 'ext', version: '1', providers: [Catalog], diagnostics: SILENT_DIAGNOSTICS, extensions: [beta, after] });
    listener = await server.listen({ port: 0 });
  });

  afterEach(async () => {
    await listener.close();
    await server.close();
  });

  for (const era of ['stateless', 'session'] as V2Era[]) {
    it(`lists each tool as the hooks return it, in order, and a hidden one is unknown to calls as to lists (${era})`, async () => {
      const declaring = await connectV2(listener.url, era, { extensions: { 'com.example/beta': {} } });
      const other = await connectV2(listener.url, era);
      try {
        const tagged = { 'com.example/beta': { owner: 'Catalog', member: 'open' } };
        expect((await declaring.listTools()).tools.map((tool) => [tool.name, tool._meta])).to.deep.equal([
          ['open', tagged], ['beta_preview', { 'com.example/beta': { owner: 'Catalog', member: 'beta_preview' } }],
        ]);
        expect(seenAfter).to.include(`open:${JSON.stringify(tagged)}`);
        expect((await declaring.callTool({ name: 'beta_preview', arguments: {} })).content).to.deep.equal([{ type: 'text', text: 'preview' }]);
        expect((await other.listTools()).tools.map((tool) => tool.name)).to.deep.equal(['open']);
        const hidden = await other.callTool({ name: 'beta_preview', arguments: {} }).then(() => undefined, (error) => error);
        const unknown = await other.callTool({ name: 'no_such_tool', arguments: {} }).then(() => undefined, (error) => error);
        expect([hidden?.code, hidden?.message.replace('beta_preview', 'X')]).to.deep.equal([unknown?.code, unknown?.message.replace('no_such_tool', 'X')]);
      } finally {
        await declaring.close();
        await other.close();
      }
    });
  }
});

describe('extensions: a tool a hook hides is unknown to the protocol layer too (2026-07-28)', () => {
  class RegionArgs {
    @Field({ description: 'Region', header: 'Region' }) @IsString() region!: string;
  }
  class Jobs {
    @Tool({ description: 'For clients that declare com.example/beta', task: 'optional' })
    async beta_job(args: RegionArgs) { return `done in ${args.region}`; }
  }
  const beta: Extension = {
    id: 'com.example/beta',
    tool: (tool, negotiation) => (Object.hasOwn((negotiation.clientCapabilities as { extensions?: object }).extensions ?? {}, 'com.example/beta') ? tool.descriptor : undefined),
  };
  const TASKS = { 'io.modelcontextprotocol/tasks': {} };
  let server: PhantomServer;
  let listener: HttpListener;

  before(async () => {
    server = new PhantomServer({ name: 'jobs', version: '1', providers: [Jobs], diagnostics: SILENT_DIAGNOSTICS, extensions: [beta] });
    listener = await server.listen({ port: 0 });
  });
  after(async () => {
    await listener.close();
    await server.close();
  });

  it('answers a call of it as one of an unknown tool, its mirrored headers unchecked, and never as a task', async () => {
    const params = (capabilities: Record<string, unknown>, name = 'beta_job') => ({ name, arguments: { region: 'eu' }, _meta: meta(capabilities) });
    // No Mcp-Param-Region header: a tool the client may know would be refused as a header mismatch (-32020).
    const hidden = await call(listener.url, 'tools/call', params({ extensions: TASKS }));
    const unknown = await call(listener.url, 'tools/call', params({ extensions: TASKS }, 'no_such_tool'));
    expect([hidden.status, hidden.body.error?.code]).to.deep.equal([unknown.status, unknown.body.error?.code]);
    expect(hidden.body.error?.code).not.to.equal(-32020);
    const declared = { extensions: { ...TASKS, 'com.example/beta': {} } };
    expect((await call(listener.url, 'tools/call', params(declared))).body.error?.code).to.equal(-32020);
    const task = await call(listener.url, 'tools/call', params(declared), { 'mcp-param-region': 'eu' });
    expect(task.body.result.resultType).to.equal('task');
  });
});
