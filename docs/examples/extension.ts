// Writing an extension on the public API of 'phantom-mcp/extensions': a method, a resource and a
// view of the tools (the changelog), then forms asked another way (chat forms).
// Included in docs/guide/extensions.md; run by spec/docs/examples/extension.spec.ts.
import 'reflect-metadata';
// #region extension
import { ProtocolError } from 'phantom-mcp';
import { declaresExtension, type Extension, type ExtensionHost, type Negotiation } from 'phantom-mcp/extensions';

export interface Release {
  readonly version: string;
  readonly notes: string;
}

export class ChangelogExtension implements Extension {
  readonly id = 'com.example/changelog';
  private host?: ExtensionHost;

  constructor(private readonly releases: readonly Release[]) {}

  // Advertised under capabilities.extensions['com.example/changelog'], in both eras.
  settings(_negotiation: Negotiation) {
    return { latest: this.releases[0]?.version ?? null };
  }

  readonly methods = {
    'changelog/list': {
      cache: { ttlMs: 60_000, scope: 'public' as const }, // 2026-07-28: ttlMs and cacheScope
      handle: async (params: Record<string, unknown>) => {
        if (params.cursor !== undefined && typeof params.cursor !== 'string') throw ProtocolError.invalidParams('"cursor" must be a string');
        const page = this.host!.page('changelog', this.releases.map((release) => release.version), params.cursor);
        return { versions: [...page.items], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      },
    },
  };

  setup(host: ExtensionHost): void {
    this.host = host;
    host.serveResources([{
      uriTemplate: 'changelog://{version}',
      name: 'release',
      mimeType: 'text/markdown',
      list: async () => this.releases.map((release) => ({ uri: `changelog://${release.version}`, name: release.version, mimeType: 'text/markdown' })),
      read: async (_uri, { version }) => this.releases.find((release) => release.version === version)?.notes, // undefined: not found
    }]);
  }
}
// #endregion extension

// #region tool-hook
import type { WireTool } from 'phantom-mcp/protocol';
import type { ExtensionTool } from 'phantom-mcp/extensions';

/** Tools in preview: listed, with a flag, only to clients that declare the extension. */
export class PreviewExtension implements Extension {
  readonly id = 'com.example/preview';

  constructor(private readonly previews: readonly string[]) {}

  tool(tool: ExtensionTool, negotiation: Negotiation): WireTool | undefined {
    if (!this.previews.includes(tool.name)) return tool.descriptor;
    if (!declaresExtension(negotiation.clientCapabilities, this.id)) return undefined; // unknown to this client
    return { ...tool.descriptor, _meta: { ...tool.descriptor._meta, [this.id]: { preview: true } } }; // a copy: never edit it
  }
}
// #endregion tool-hook

// #region chat-forms
import { CallEndedSignal, ToolResult, type Context, type JsonObject } from 'phantom-mcp';
import type { ElicitationFallback, ElicitationFallbackCall, ExtensionServedTool, ExtensionTokens, FallbackElicitation } from 'phantom-mcp/extensions';

/** A call waiting for the user, as its token carries it. */
interface PendingCall {
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly answers: JsonObject; // by elicitation key
}

/** Answers a call's forms from the answers given so far, or ends the call asking the model to ask the user. */
class ChatForms implements ElicitationFallback {
  constructor(private readonly call: PendingCall, private readonly principal: unknown, private readonly tokens: ExtensionTokens) {}

  async elicit(request: FallbackElicitation): Promise<JsonObject> {
    const answer = this.call.answers[request.key];
    if (answer !== undefined) return { action: 'accept', content: answer }; // validated by the form, as a client's answer
    const token = this.tokens.seal({ ...this.call, key: request.key }, this.principal, 10 * 60_000);
    throw new CallEndedSignal({
      content: [{ type: 'text', text: `Ask the user: "${request.message}". Then call answer_form with this token and their answers.` }],
      _meta: { 'com.example/chat-forms': { token, requestedSchema: request.requestedSchema } },
    });
  }
}

export class ChatFormsExtension implements Extension {
  readonly id = 'com.example/chat-forms';
  private tokens?: ExtensionTokens;

  setup(host: ExtensionHost): void {
    const tokens = (this.tokens = host.tokens('pending-form')); // signed, expiring, bound to the caller
    const answerForm: ExtensionServedTool = {
      name: 'answer_form',
      description: 'Gives the user\'s answers to a form a tool asked for, and resumes that tool',
      inputSchema: {
        type: 'object',
        properties: { token: { type: 'string' }, answers: { type: 'object' } },
        required: ['token', 'answers'],
      },
      async handle(args: JsonObject, ctx: Context) {
        const opened = tokens.open(args.token, ctx.principal);
        if (!opened.ok) return ToolResult.error(`This form cannot be answered (${opened.reason}).`);
        const { tool, arguments: toolArgs, answers, key } = opened.value as unknown as PendingCall & { key: string };
        const resumed: PendingCall = { tool, arguments: toolArgs, answers: { ...answers, [key]: args.answers } };
        const outcome = await host.callTool(tool, toolArgs, ctx, { elicitation: new ChatForms(resumed, ctx.principal, tokens) });
        return 'result' in outcome ? outcome.result : ToolResult.error(outcome.error.message);
      },
    };
    host.serveTools([answerForm]);
  }

  // Asked for each tools/call; ctx.elicit uses it only when the client cannot show forms itself.
  elicitationFallback(call: ElicitationFallbackCall): ElicitationFallback {
    return new ChatForms({ tool: call.tool.name, arguments: call.arguments, answers: {} }, call.principal, this.tokens!);
  }
}
// #endregion chat-forms

// #region server
import { Matches } from 'class-validator';
import { Elicit, Field, PhantomServer, Tool } from 'phantom-mcp';

@Elicit({ message: 'When should I remind you?' })
export class ReminderTime {
  @Field({ title: 'Time', description: 'HH:MM' })
  @Matches(/^\d{2}:\d{2}$/, { message: 'time must be HH:MM' })
  time!: string;
}

export class ReminderTools {
  @Tool({ description: 'Sets a reminder; asks the user when' })
  async remind(_args: object, ctx: Context) {
    const when = await ctx.elicit(ReminderTime);
    return when.action === 'accept' ? `Reminder set for ${when.content.time}.` : 'No reminder set.';
  }

  @Tool({ description: 'Snoozes every reminder (in preview)' })
  snoozeAll() {
    return 'Snoozed.';
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'reminders',
    version: '1.0.0',
    providers: [ReminderTools],
    extensions: [
      new ChangelogExtension([{ version: '1.1.0', notes: '# 1.1.0\n\nSnooze.' }, { version: '1.0.0', notes: '# 1.0.0\n\nReminders.' }]),
      new PreviewExtension(['snoozeAll']),
      new ChatFormsExtension(),
    ],
  });
}
// #endregion server
