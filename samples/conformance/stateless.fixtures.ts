import 'reflect-metadata';
import { IsString } from 'class-validator';
import { inject, injectable } from 'tsyringe';
import { Context, Elicit, Field, PhantomServer, Prompt, Tool, ToolResult, userText } from '../../lib';

/** Forms the multi-round-trip scenarios ask for. */
@Elicit({ message: 'What is your name?' })
export class NameForm {
  @Field({ title: 'Name' }) @IsString() name!: string;
}

@Elicit({ message: 'Step 2: What is your favorite color?' })
export class ColorForm {
  @Field({ title: 'Color' }) @IsString() color!: string;
}

@Elicit({ message: 'What context should the prompt use?' })
export class ContextForm {
  @Field({ title: 'Context' }) @IsString() context!: string;
}

@Elicit({ message: 'Please confirm' })
export class ConfirmForm {}

export class RegionArgs {
  @Field({ description: 'Region to route to', header: 'Region' }) @IsString() region!: string;
}

const textOf = (reply: { content?: unknown }) => {
  const content = reply.content as { type?: string; text?: string } | undefined;
  return content?.type === 'text' ? content.text ?? '' : JSON.stringify(content);
};

/** Something to add and remove at runtime, so list changes can be triggered. */
export class DynamicTool {
  @Tool({ description: 'Appears and disappears when test_trigger_tool_change runs' })
  dynamic_tool() { return 'dynamic'; }
}

export class DynamicPrompt {
  @Prompt({ description: 'Appears and disappears when test_trigger_prompt_change runs' })
  dynamic_prompt() { return 'dynamic'; }
}

/**
 * Tools the 2026-07-28 scenarios call. Each is written as any user would: the same `ctx.elicit`,
 * `ctx.sample` and `ctx.listRoots` as in the session era; the framework turns them into
 * `input_required` rounds.
 */
@injectable()
export class StatelessConformanceTools {
  constructor(@inject(PhantomServer) private readonly server: PhantomServer) {}

  @Tool({ name: 'test_missing_capability', description: 'Needs the client sampling capability', requires: ['sampling'] })
  missingCapability() { return 'The client declared sampling'; }

  @Tool({ name: 'test_streaming_elicitation', description: 'Reports progress, then asks the user for their name' })
  async streamingElicitation(_args: object, ctx: Context) {
    await ctx.progress(1, 2, 'asking');
    const answer = await ctx.elicit(NameForm);
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `Elicitation ${answer.action}`;
  }

  @Tool({ name: 'test_logging_tool', description: 'Logs at every level it can' })
  async logging(_args: object, ctx: Context) {
    await ctx.log.info('logging tool ran');
    await ctx.log.error('an error line');
    return 'Logging tool completed';
  }

  @Tool({ name: 'test_trigger_tool_change', description: 'Adds or removes dynamic_tool' })
  triggerToolChange() {
    if (this.server.removeTool('dynamic_tool')) return 'dynamic_tool removed';
    this.server.add(DynamicTool);
    return 'dynamic_tool added';
  }

  @Tool({ name: 'test_trigger_prompt_change', description: 'Adds or removes dynamic_prompt' })
  triggerPromptChange() {
    if (this.server.removePrompt('dynamic_prompt')) return 'dynamic_prompt removed';
    this.server.add(DynamicPrompt);
    return 'dynamic_prompt added';
  }

  @Tool({ name: 'test_header_routing', description: 'Echoes a region mirrored into the Mcp-Param-Region header' })
  headerRouting(args: RegionArgs) { return `Routed to ${args.region}`; }

  @Tool({ name: 'test_input_required_result_elicitation', description: 'Asks for a name, then greets' })
  async elicitation(_args: object, ctx: Context) {
    const answer = await ctx.elicit(NameForm, { key: 'user_name' });
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : ToolResult.error(`Elicitation ${answer.action}`);
  }

  @Tool({ name: 'test_input_required_result_sampling', description: 'Asks the client model a question' })
  async sampling(_args: object, ctx: Context) {
    const reply = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 }, { key: 'capital_question' });
    return `Model answered: ${textOf(reply)}`;
  }

  @Tool({ name: 'test_input_required_result_list_roots', description: 'Lists the client roots' })
  async listRoots(_args: object, ctx: Context) {
    const roots = await ctx.listRoots({ key: 'client_roots' });
    return `Roots: ${roots.map((root) => root.uri).join(', ')}`;
  }

  @Tool({ name: 'test_input_required_result_request_state', description: 'Asks for confirmation, carrying state' })
  async requestState(_args: object, ctx: Context) {
    const answer = await ctx.elicit(ConfirmForm);
    return `Confirmation: ${answer.action}`;
  }

  @Tool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks for three inputs at once' })
  async multipleInputs(_args: object, ctx: Context) {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit(NameForm, { key: 'user_name' }),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say a greeting' } }], maxTokens: 50 }, { key: 'greeting' }),
      ctx.listRoots({ key: 'client_roots' }),
    ]);
    const who = name.action === 'accept' ? name.content.name : 'someone';
    return `${textOf(greeting)} ${who} (${roots.length} roots)`;
  }

  @Tool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions, one round each' })
  async multiRound(_args: object, ctx: Context) {
    const name = await ctx.elicit(NameForm, { message: 'Step 1: What is your name?', key: 'step1' });
    if (name.action !== 'accept') return ToolResult.error('No name');
    const color = await ctx.elicit(ColorForm, { key: 'step2' });
    if (color.action !== 'accept') return ToolResult.error('No color');
    return `${name.content.name} likes ${color.content.color}`;
  }

  @Tool({ name: 'test_input_required_result_tampered_state', description: 'Asks for confirmation; tampered state is refused' })
  async tamperedState(_args: object, ctx: Context) {
    const answer = await ctx.elicit(ConfirmForm);
    return `Confirmation: ${answer.action}`;
  }

  @Tool({ name: 'test_input_required_result_capabilities', description: 'Elicits only when the client can, else samples' })
  async capabilities(_args: object, ctx: Context) {
    const answer = await ctx.elicit(NameForm);
    if (answer.action === 'accept') return `Hello, ${answer.content.name}!`;
    const reply = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Pick a name' } }], maxTokens: 20 });
    return `Hello, ${textOf(reply)}!`;
  }

  @Prompt({ name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for context' })
  async contextPrompt(_args: object, ctx: Context) {
    const answer = await ctx.elicit(ContextForm, { key: 'user_context' });
    return userText(answer.action === 'accept' ? `Use this context: ${answer.content.context}` : 'No context given');
  }
}
