import 'reflect-metadata';
import { IsNumber, IsString } from 'class-validator';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Task } from '@modelcontextprotocol/sdk/types.js';
import { Context, Elicit, Field, PhantomServer, ProtocolError, SILENT_DIAGNOSTICS, Tool, ToolResult, type PhantomServerOptions } from '../../../../lib';
import { Gate } from '../../../support/gate';

@Elicit({ message: 'What is your name?' })
export class Name {
  @Field({ title: 'Name' }) @IsString() name!: string;
}

class Measure {
  @IsNumber() total!: number;
}

/** What the specs steer and observe of the task handlers: the gate they wait on, what they did. */
export const steer = {
  gate: new Gate(),
  /** Set once a `slow` handler returned (after its gate opened). */
  returned: 0,
  reset(): void {
    this.gate = new Gate();
    this.returned = 0;
  },
};

/** Tools that run as tasks of 2025-11-25, and one that never does. */
export class TaskTools {
  @Tool({ description: 'Runs until the spec opens its gate', task: 'optional' })
  async slow(_args: object, ctx: Context) {
    await steer.gate.pass(ctx.signal);
    steer.returned += 1;
    return 'slow done';
  }

  @Tool({ description: 'Reports progress once the spec opens its gate', task: 'optional' })
  async report(_args: object, ctx: Context) {
    await steer.gate.pass(ctx.signal);
    await ctx.progress(1, 2, 'half way');
    return 'reported';
  }

  @Tool({ description: 'Answers at once, only as a task', task: 'required' })
  quick() {
    return 'quick';
  }

  @Tool({ description: 'Structured output', task: 'optional', output: Measure })
  measure(): Measure {
    return { total: 3 };
  }

  @Tool({ description: 'Reports a tool error', task: 'optional' })
  refuse() {
    return ToolResult.error('refused on purpose');
  }

  @Tool({ description: 'Fails with a protocol error', task: 'optional' })
  reject() {
    throw new ProtocolError(-32602, 'rejected on purpose', { reason: 'spec' });
  }

  @Tool({ description: 'Asks the user a name, then waits for the gate', task: 'optional' })
  async interview(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Name);
    await steer.gate.pass(ctx.signal);
    return answer.action === 'accept' ? `hello ${answer.content.name}` : `no name: ${answer.action}`;
  }

  @Tool({ description: 'Never a task' })
  plain() {
    return 'plain';
  }
}

/** Tools none of which runs as a task. */
export class PlainTools {
  @Tool({ description: 'Never a task' })
  plain() {
    return 'plain';
  }
}

/** Short polls, so that the SDK's loop does not sleep a second between its tasks/get. */
export const QUICK_POLLS = { pollIntervalMs: 10 };

export function taskServer(options: Partial<PhantomServerOptions> = {}): PhantomServer {
  return new PhantomServer({
    name: 'tasks', version: '1.0.0', providers: [TaskTools], forms: [Name], diagnostics: SILENT_DIAGNOSTICS,
    ...options,
    tasks: { ...QUICK_POLLS, ...options.tasks },
  });
}

/** Calls `name` as a task with the SDK's stream, resolves with its task once created, and the rest of the stream. */
export async function startTask(client: Client, name: string, task: { ttl?: number } = {}, options: object = {}) {
  const stream = client.experimental.tasks.callToolStream({ name, arguments: {} }, CallToolResultSchema, { task, ...options });
  const first = await stream.next();
  if (first.done || first.value.type !== 'taskCreated') throw new Error(`no task created: ${JSON.stringify(first.value)}`);
  return { task: first.value.task as Task, stream };
}

/** The last message of the stream: its result, or its error. */
export async function lastOf(stream: AsyncGenerator<{ type: string; result?: unknown; error?: unknown }>) {
  let last: { type: string; result?: unknown; error?: unknown } | undefined;
  for await (const message of stream) last = message;
  return last!;
}

/** The code of the error `promise` rejects with. */
export async function codeOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    return (error as { code: number }).code;
  }
  throw new Error('expected an error');
}

export type { CallToolResult };
