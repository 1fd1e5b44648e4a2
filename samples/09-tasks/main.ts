import 'reflect-metadata';
import { IsBoolean, IsInt, IsString, Max, Min } from 'class-validator';
import { Elicit, Field, PhantomServer, Tool, type Context } from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

export class ReportArgs {
  @Field({ description: 'The quarter to report on, e.g. 2026-Q3' })
  @IsString()
  quarter!: string;

  @Field({ description: 'Seconds each of the four steps takes' })
  @IsInt() @Min(0) @Max(60)
  stepSeconds = 2;
}

/** Asked half way: the report is done computing, and mailing it is the step that cannot be undone. */
@Elicit({ message: 'The report is ready. Mail it to the board?' })
export class MailConfirmation {
  @Field({ title: 'Mail it' })
  @IsBoolean()
  send!: boolean;
}

/**
 * A long-running tool as a task: the client gets a task at once and polls it; the handler is an
 * ordinary one. It reports progress, asks for a confirmation half way (the task is then
 * `input_required` until the client answers) and stops when the task is cancelled: `ctx.sleep`
 * (standing in for real work here) rejects then, which ends the call, and it leaves no timer or
 * listener behind however many steps it waits.
 */
export class ReportTools {
  @Tool({ description: 'Builds the quarterly report (about 8 s), asks before mailing it', task: 'optional' })
  async quarterlyReport(args: ReportArgs, ctx: Context) {
    const ms = args.stepSeconds * 1000;
    for (const [done, what] of [[1, 'collecting figures'], [2, 'building charts']] as const) {
      await ctx.sleep(ms);
      await ctx.progress(done, 4, what);
    }
    const answer = await ctx.elicit(MailConfirmation);
    const send = answer.action === 'accept' && answer.content.send;
    for (const [done, what] of [[3, send ? 'mailing the board' : 'filing'], [4, 'done']] as const) {
      await ctx.sleep(ms);
      await ctx.progress(done, 4, what);
    }
    return { quarter: args.quarter, mailed: send, task: ctx.task?.id ?? null };
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: 'reports', version: '1.0.0', providers: [ReportTools], forms: [MailConfirmation], store: storeFromEnv() });
}

if (require.main === module) void runSample(createServer());
