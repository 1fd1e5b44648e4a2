import 'reflect-metadata';
import { expect } from 'chai';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { apps, Context, DefinitionError, Elicit, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool, ToolUi, type AppsOptions } from '../../../lib';
import { APP_MIME_TYPE, APPS_EXTENSION_ID, ELICITATION_META_KEY, FORM_SUBMIT_TOOL, FORM_VIEW_URI } from '../../../lib/entries/extensions';
import type { HttpListener } from '../../../lib/entries/http';
import { extensionTokens } from '../../../lib/router/extensions/extension-tokens';
import { SigningKeys } from '../../../lib/server/signing-keys';
import { connectHttp } from '../../integration/support/sdk-clients';
import { recordingHost } from '../../support/skill-folders';

const UI = { [APPS_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } };
/** A host that renders Views and cannot elicit (claude.ai's shape). */
const UI_ONLY = { extensions: UI } as never;
const STATE_KEY = 'apps-forms-spec-shared-secret';

@Elicit({ message: 'How many people?' })
class PartySize {
  @Field({ title: 'Party size', description: 'Between 1 and 12' }) @IsInt() @Min(1) @Max(12) people!: number;
}

@Elicit({ message: 'Which day?' })
class Day {
  @Field({ title: 'Day', format: 'date' }) @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/) day!: string;
}

@Elicit({ message: 'Indoors or out?' })
class Seating {
  @Field({ title: 'Seating', oneOf: { in: 'Indoors', out: 'Terrace' } }) @IsIn(['in', 'out']) where = 'in';
}

class Report {
  @Field() @IsString() text!: string;
}

class BookingTools {
  /** What the handler saw of each accepted answer: only validated instances may ever get here. */
  static readonly seen: unknown[] = [];

  @Tool({ description: 'Book a table' })
  @ToolUi({ forms: true })
  async book(_args: object, ctx: Context) {
    const party = await ctx.elicit(PartySize);
    if (party.action !== 'accept') return `No booking (${party.action})`;
    BookingTools.seen.push(party.content);
    const day = await ctx.elicit(Day);
    if (day.action !== 'accept') return `No booking (${day.action})`;
    BookingTools.seen.push(day.content);
    const kinds = party.content instanceof PartySize && day.content instanceof Day ? 'validated instances' : 'plain objects';
    return `Booked for ${party.content.people} on ${day.content.day} (${kinds})`;
  }

  @Tool({ description: 'Asks only inside the call' })
  @ToolUi({ forms: true })
  async inCallOnly(_args: object, ctx: Context) {
    return (await ctx.elicit(Seating, { fallback: false })).action;
  }

  @Tool({ description: 'Has its own View, which renders the pending form itself' })
  @ToolUi({ html: '<!doctype html><html><head></head><body>own</body></html>', forms: true })
  async ownView(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Seating);
    return answer.action === 'accept' ? `Seated ${answer.content.where}` : answer.action;
  }

  @Tool({ description: 'Not opted in' })
  async plain(_args: object, ctx: Context) {
    return (await ctx.elicit(Seating)).action;
  }
}

class ServerWideTools {
  @Tool({ description: 'Seating, opted in by the server' })
  async seat(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Seating);
    return answer.action === 'accept' ? `Seated ${answer.content.where}` : answer.action;
  }

  @Tool({ description: 'Has an output schema', output: Report })
  async report(_args: object, ctx: Context) {
    return { text: (await ctx.elicit(Seating)).action };
  }

  @Tool({ description: 'Opted out of the server-wide forms, with no View' })
  @ToolUi({ forms: false })
  async optedOut(_args: object, ctx: Context) {
    return (await ctx.elicit(Seating)).action;
  }
}

type Result = { content: { type: string; text?: string }[]; isError?: boolean; _meta?: Record<string, unknown> };
type Pending = { message: string; requestedSchema: { properties: Record<string, unknown>; required?: string[] }; token: string; issues?: string[] };

const textOf = (result: Result) => result.content.map((block) => block.text).join('\n');
const pendingOf = (result: Result) => result._meta?.[ELICITATION_META_KEY] as Pending | undefined;

function serverOf(providers: (new () => object)[], options: AppsOptions = {}): PhantomServer {
  return new PhantomServer({ name: 'forms', version: '1.0.0', providers, extensions: [apps(options)], stateKey: STATE_KEY, diagnostics: SILENT_DIAGNOSTICS });
}

async function listening(server: PhantomServer): Promise<HttpListener> {
  return server.listen({ port: 0, authenticate: ({ headers }) => ({ allow: true, principal: { sub: String(headers['x-user'] ?? 'ann') } }) });
}

/** The official v1 client (session era) as `user`. */
async function v1(url: string, capabilities: object = UI_ONLY, user = 'ann') {
  return (await connectHttp(url, capabilities as never, { 'x-user': user })).client;
}

/** The official v2 client pinned to 2026-07-28 (stateless era) as `user`. */
async function v2Stateless(url: string, user = 'ann'): Promise<V2Client> {
  const client = new V2Client({ name: 'forms-spec', version: '1.0.0' }, {
    capabilities: { extensions: UI }, versionNegotiation: { mode: { pin: '2026-07-28' } },
  } as ConstructorParameters<typeof V2Client>[1]);
  await client.connect(new V2Transport(new URL(url), { requestInit: { headers: { 'x-user': user } } }));
  return client;
}

interface Caller {
  call(name: string, args?: Record<string, unknown>): Promise<Result>;
}

const submit = (caller: Caller, token: string, action: string, content?: Record<string, unknown>) =>
  caller.call(FORM_SUBMIT_TOOL, content === undefined ? { token, action } : { token, action, content });

describe('MCP Apps forms (apps({ forms }), @ToolUi({ forms }))', function () {
  this.timeout(20_000);
  let server: PhantomServer;
  let listener: HttpListener;

  beforeEach(async () => {
    BookingTools.seen.length = 0;
    server = serverOf([BookingTools]);
    listener = await listening(server);
  });

  afterEach(async () => {
    await listener.close();
    await server.close();
  });

  describe('tools/list and resources/read', () => {
    it('lists an opted-in tool with the form View and the app-only submit tool, and serves the View with the inlined SDK', async () => {
      const client = await v1(listener.url);
      try {
        const tools = (await client.listTools()).tools;
        const book = tools.find((tool) => tool.name === 'book')!;
        expect((book._meta as { ui: unknown }).ui).to.deep.equal({ resourceUri: FORM_VIEW_URI });
        expect(tools.find((tool) => tool.name === 'plain')!._meta).to.equal(undefined);
        const submitTool = tools.find((tool) => tool.name === FORM_SUBMIT_TOOL)!;
        expect((submitTool._meta as { ui: unknown }).ui).to.deep.equal({ visibility: ['app'] });
        const contents = (await client.readResource({ uri: FORM_VIEW_URI })).contents[0] as { mimeType: string; text: string };
        expect(contents.mimeType).to.equal(APP_MIME_TYPE);
        expect(contents.text).to.contain('globalThis.McpApps=').and.not.contain('data-mcp-apps-sdk');
      } finally {
        await client.close();
      }
    });

    it('hides the submit tool from a client that renders no Views', async () => {
      const client = await v1(listener.url, {});
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).to.not.include(FORM_SUBMIT_TOOL);
        const refused = await client.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token: 'x', action: 'cancel' } }).then(() => 'answered', (error: Error) => error.message);
        expect(refused).to.contain('Unknown tool');
      } finally {
        await client.close();
      }
    });
  });

  describe('which clients get the fallback', () => {
    it('sends a real elicitation to a client that declares form elicitation (no fallback)', async () => {
      const client = await v1(listener.url, { elicitation: { form: {} }, extensions: UI });
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        return request.params.message === 'How many people?' ? { action: 'accept', content: { people: 2 } } : { action: 'accept', content: { day: '2026-12-24' } };
      });
      try {
        const result = await client.callTool({ name: 'book', arguments: {} }) as Result;
        expect([textOf(result), pendingOf(result), asked]).to.deep.equal(['Booked for 2 on 2026-12-24 (validated instances)', undefined, ['How many people?', 'Which day?']]);
      } finally {
        await client.close();
      }
    });

    it('answers unsupported to a client with neither form elicitation nor Views', async () => {
      const client = await v1(listener.url, {});
      try {
        expect(textOf(await client.callTool({ name: 'book', arguments: {} }) as Result)).to.equal('No booking (unsupported)');
      } finally {
        await client.close();
      }
    });

    it('answers unsupported for a tool that did not opt in, and for a call that opts out', async () => {
      const client = await v1(listener.url);
      try {
        expect(textOf(await client.callTool({ name: 'plain', arguments: {} }) as Result)).to.equal('unsupported');
        const optedOut = await client.callTool({ name: 'inCallOnly', arguments: {} }) as Result;
        expect([textOf(optedOut), pendingOf(optedOut)]).to.deep.equal(['unsupported', undefined]);
      } finally {
        await client.close();
      }
    });
  });

  for (const era of ['session', 'stateless'] as const) {
    describe(`the flow (${era} era)`, () => {
      let caller: Caller & { close(): Promise<void> };

      beforeEach(async () => {
        const client = era === 'session' ? await v1(listener.url) : await v2Stateless(listener.url);
        caller = {
          call: async (name, args = {}) => await client.callTool({ name, arguments: args }) as Result,
          close: () => client.close(),
        };
      });

      afterEach(async () => {
        await caller.close();
      });

      it('ends the call with a waiting result carrying the form, and resumes the handler with validated instances, form after form', async () => {
        const waiting = await caller.call('book');
        const first = pendingOf(waiting)!;
        expect(textOf(waiting)).to.contain('they are asked "How many people?" in the app');
        expect(waiting.isError).to.equal(undefined);
        expect(first.message).to.equal('How many people?');
        expect(first.requestedSchema).to.deep.include({ required: ['people'] });
        expect(first.requestedSchema.properties.people).to.deep.include({ type: 'integer', title: 'Party size', minimum: 1, maximum: 12 });

        const second = await submit(caller, first.token, 'accept', { people: 4 });
        expect(pendingOf(second)!.message).to.equal('Which day?');
        const done = await submit(caller, pendingOf(second)!.token, 'accept', { day: '2026-12-24' });
        expect([textOf(done), pendingOf(done), done.isError]).to.deep.equal(['Booked for 4 on 2026-12-24 (validated instances)', undefined, undefined]);
        expect(BookingTools.seen.map((seen) => seen?.constructor)).to.deep.equal([PartySize, PartySize, Day]);
      });

      it('refuses invalid content with the issues, naming the field, keeps the form answerable, and the handler never sees it', async () => {
        const first = pendingOf(await caller.call('book'))!;
        const refused = await submit(caller, first.token, 'accept', { people: 40 });
        const again = pendingOf(refused)!;
        expect(again.message).to.equal('How many people?');
        expect(again.issues!.join('\n')).to.contain('people');
        expect(textOf(refused)).to.contain('is invalid');
        expect(BookingTools.seen).to.deep.equal([]);
        // Both the first token and the one the refusal carries take the corrected answer.
        for (const token of [first.token, again.token]) {
          expect(pendingOf(await submit(caller, token, 'accept', { people: 3 }))!.message).to.equal('Which day?');
        }
      });

      it('hands decline and cancel to the handler', async () => {
        const first = pendingOf(await caller.call('book'))!;
        expect(textOf(await submit(caller, first.token, 'decline'))).to.equal('No booking (decline)');
        expect(textOf(await submit(caller, first.token, 'cancel'))).to.equal('No booking (cancel)');
      });
    });
  }

  describe('phantom_elicitation_submit refuses a token', () => {
    const forged = (now: () => number) => {
      const keys = new SigningKeys({ stateKey: STATE_KEY });
      return extensionTokens(keys.extensions, APPS_EXTENSION_ID, 'elicitation-form', now)
        .seal({ tool: 'book', arguments: {}, answers: {}, key: 'elicit-1' }, { sub: 'ann' }, 60_000);
    };

    it('that was tampered with', async () => {
      const client = await v1(listener.url);
      try {
        const { token } = pendingOf(await client.callTool({ name: 'book', arguments: {} }) as Result)!;
        const [body, signature] = token.split('.');
        const edited = `${Buffer.from(Buffer.from(body, 'base64url').toString().replace('"book"', '"plain"')).toString('base64url')}.${signature}`;
        const refused = await client.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token: edited, action: 'accept', content: { people: 2 } } }) as Result;
        expect([refused.isError, textOf(refused)]).to.deep.equal([true, 'This form cannot be submitted: its token is not one this server issued (or it was changed). Ask again.']);
      } finally {
        await client.close();
      }
    });

    it("of another principal", async () => {
      const ann = await v1(listener.url, UI_ONLY, 'ann');
      const bob = await v1(listener.url, UI_ONLY, 'bob');
      try {
        const { token } = pendingOf(await ann.callTool({ name: 'book', arguments: {} }) as Result)!;
        const refused = await bob.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token, action: 'accept', content: { people: 2 } } }) as Result;
        expect([refused.isError, textOf(refused)]).to.deep.equal([true, 'This form was issued to someone else: it cannot be submitted by this caller.']);
        expect(BookingTools.seen).to.deep.equal([]);
      } finally {
        await ann.close();
        await bob.close();
      }
    });

    it('that expired (sealed with the server key, an hour ago)', async () => {
      const client = await v1(listener.url);
      try {
        const valid = await client.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token: forged(Date.now), action: 'accept', content: { people: 2 } } }) as Result;
        expect(pendingOf(valid)!.message).to.equal('Which day?');
        const expired = forged(() => Date.now() - 3_600_000);
        const refused = await client.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token: expired, action: 'accept', content: { people: 2 } } }) as Result;
        expect([refused.isError, textOf(refused)]).to.deep.equal([true, 'This form has expired. Call the tool again to be asked anew.']);
      } finally {
        await client.close();
      }
    });

    it('with arguments its schema refuses (an isError result naming them)', async () => {
      const client = await v1(listener.url);
      try {
        const refused = await client.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token: 'x', action: 'maybe' } }) as Result;
        expect(refused.isError).to.equal(true);
        expect(textOf(refused)).to.contain('action');
      } finally {
        await client.close();
      }
    });
  });

  describe('AppsExtension#elicitationFallback', () => {
    it('serves a call only for a client that renders Views and does not elicit forms itself', async () => {
      const listed = (member: string) => ({ name: member, owner: BookingTools, member, descriptor: Object.freeze({ name: member, description: member, inputSchema: { type: 'object' as const } }) });
      const tool = listed('book');
      const extension = apps();
      await extension.setup(recordingHost(undefined, [tool, listed('inCallOnly'), listed('ownView'), listed('plain')]));
      const fallbackFor = (clientCapabilities: Record<string, unknown>) => extension.elicitationFallback({
        tool, arguments: {}, principal: undefined, negotiation: { era: 'session', protocolVersion: '2025-11-25', clientCapabilities },
      });
      expect(fallbackFor({ extensions: UI })).to.not.equal(undefined);
      expect(fallbackFor({ extensions: UI, elicitation: {} })).to.equal(undefined);
      expect(fallbackFor({ extensions: UI, elicitation: { form: {} } })).to.equal(undefined);
      expect(fallbackFor({ extensions: UI, elicitation: { url: {} } })).to.not.equal(undefined);
      expect(fallbackFor({})).to.equal(undefined);
    });
  });

  describe('a tool with its own View and forms: true', () => {
    it('keeps its View, and its waiting result carries the pending form for that View to render', async () => {
      const client = await v1(listener.url);
      try {
        const listed = (await client.listTools()).tools.find((tool) => tool.name === 'ownView')!;
        expect((listed._meta as { ui: { resourceUri: string } }).ui.resourceUri).to.equal('ui://tools/ownView.html');
        const { token, message } = pendingOf(await client.callTool({ name: 'ownView', arguments: {} }) as Result)!;
        expect(message).to.equal('Indoors or out?');
        expect(textOf(await client.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token, action: 'accept', content: { where: 'out' } } }) as Result)).to.equal('Seated out');
      } finally {
        await client.close();
      }
    });
  });

  describe('across replicas', () => {
    it('a second server with the same shared key takes the token the first issued', async () => {
      const replica = serverOf([BookingTools]);
      const other = await listening(replica);
      const first = await v1(listener.url);
      const second = await v1(other.url);
      try {
        const { token } = pendingOf(await first.callTool({ name: 'book', arguments: {} }) as Result)!;
        const next = await second.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token, action: 'accept', content: { people: 5 } } }) as Result;
        expect(pendingOf(next)!.message).to.equal('Which day?');
      } finally {
        await first.close();
        await second.close();
        await other.close();
        await replica.close();
      }
    });
  });

  describe('apps({ forms: true }) (server-wide)', () => {
    it('gives every tool without a View the form View, and leaves alone a tool with an output schema and one that opts out with @ToolUi({ forms: false }) (unsupported)', async () => {
      const wide = serverOf([ServerWideTools], { forms: true });
      const wideListener = await listening(wide);
      const client = await v1(wideListener.url);
      try {
        const tools = (await client.listTools()).tools;
        expect((tools.find((tool) => tool.name === 'seat')!._meta as { ui: unknown }).ui).to.deep.equal({ resourceUri: FORM_VIEW_URI });
        expect(tools.find((tool) => tool.name === 'report')!._meta).to.equal(undefined);
        // @ToolUi({ forms: false }) alone opts the tool out: no View bound, no form shown as an app.
        expect(tools.find((tool) => tool.name === 'optedOut')!._meta).to.equal(undefined);
        const optedOut = await client.callTool({ name: 'optedOut', arguments: {} }) as Result;
        expect([textOf(optedOut), pendingOf(optedOut)]).to.deep.equal(['unsupported', undefined]);
        const { token } = pendingOf(await client.callTool({ name: 'seat', arguments: {} }) as Result)!;
        expect(textOf(await client.callTool({ name: FORM_SUBMIT_TOOL, arguments: { token, action: 'accept', content: { where: 'out' } } }) as Result)).to.equal('Seated out');
        // The official client checks structured content against the output schema: no waiting result for it.
        expect((await client.callTool({ name: 'report', arguments: {} })).structuredContent).to.deep.equal({ text: 'unsupported' });
      } finally {
        await client.close();
        await wideListener.close();
        await wide.close();
      }
    });

    it('refuses @ToolUi({ forms: true }) on a tool with an output schema at start-up', async () => {
      class Reporting {
        @Tool({ description: 'Reports', output: Report })
        @ToolUi({ forms: true })
        async report() {
          return { text: 'x' };
        }
      }
      const failing = serverOf([Reporting]);
      const failure = await failing.start().then(() => undefined, (error: unknown) => error);
      expect(failure).to.be.instanceOf(DefinitionError);
      expect((failure as DefinitionError).problems.join('\n')).to.contain('Reporting#report: @ToolUi forms: the tool has an output schema');
      await failing.close();
    });
  });
});
