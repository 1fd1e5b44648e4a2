import 'reflect-metadata';
import { IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Context, Elicit, Field, ProtocolError, Tool, ToolResult } from '../../lib';

/** Forms the task scenarios ask for. */
@Elicit({ message: 'Delete this file?' })
export class DeleteConfirmation {
  @Field({ title: 'Confirm' }) @IsBoolean() confirm!: boolean;
}

@Elicit({ message: 'Who is this for?' })
export class PartialAnswer {
  @Field({ title: 'Name' }) @IsString() name!: string;
  @Field({ title: 'Confirm' }) @IsOptional() @IsBoolean() confirm?: boolean;
}

@Elicit({ message: 'What is your name?' })
export class TaskNameForm {
  @Field({ title: 'Name' }) @IsString() name!: string;
}

export class GreetArgs {
  @Field({ description: 'Who to greet' }) @IsString() name!: string;
}

export class ComputeArgs {
  @Field({ description: 'How long to compute, in seconds' }) @IsInt() @Min(0) @Max(120) seconds = 1;
  @Field({ description: 'A label echoed in the result' }) @IsOptional() @IsString() label?: string;
}

export class FileArgs {
  @Field({ description: 'The file to delete' }) @IsString() filename!: string;
}

/** Waits `ms`, or until `signal` fires (a cancelled task stops at once). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

/** Tools the tasks-extension scenarios (SEP-2663) call, written with the ordinary API. */
export class TaskConformanceTools {
  @Tool({ description: 'Greets at once; never a task' })
  greet(args: GreetArgs) { return `Hello, ${args.name}!`; }

  @Tool({ description: 'Computes for a number of seconds; a task when the client can take one', task: 'optional' })
  async slow_compute(args: ComputeArgs, ctx: Context) {
    await pause(args.seconds * 1000, ctx.signal);
    return `Computed ${args.label ?? 'result'} in ${args.seconds}s`;
  }

  @Tool({ description: 'A task whose tool reports an error after a second', task: 'required' })
  async failing_job(_args: object, ctx: Context) {
    await pause(1000, ctx.signal);
    return ToolResult.error('The job failed');
  }

  @Tool({ description: 'A task that fails with a protocol error', task: 'required' })
  async protocol_error_job() {
    throw new ProtocolError(-32603, 'The job broke down');
  }

  @Tool({ description: 'Asks for confirmation on the task, then deletes', task: 'optional' })
  async confirm_delete(args: FileArgs, ctx: Context) {
    const answer = await ctx.elicit(DeleteConfirmation, { message: `Delete ${args.filename}?` });
    return answer.action === 'accept' && answer.content.confirm ? `Deleted ${args.filename}` : `Kept ${args.filename}`;
  }

  @Tool({ description: 'Asks two questions at once on the task', task: 'optional' })
  async multi_input(_args: object, ctx: Context) {
    const [first, second] = await Promise.all([ctx.elicit(PartialAnswer), ctx.elicit(PartialAnswer, { message: 'And who else?' })]);
    const names = [first, second].map((answer) => (answer.action === 'accept' ? answer.content.name : answer.action));
    return `For ${names.join(' and ')}`;
  }

  @Tool({ description: 'Asks for a name in the request itself, then runs as a task', task: 'required', taskStart: 'explicit' })
  async test_tool_with_task(_args: object, ctx: Context) {
    const answer = await ctx.elicit(TaskNameForm, { key: 'user_name' });
    if (answer.action !== 'accept') return ToolResult.error(`Elicitation ${answer.action}`);
    await ctx.runAsTask();
    await pause(200, ctx.signal);
    return `Hello, ${answer.content.name}, from a task`;
  }
}
