// Tasks: a long-running tool the client polls, answers and cancels, in both eras.
// Included in docs/guide/tasks.md; run by spec/docs/examples/tasks.spec.ts.
import 'reflect-metadata';
// #region tool
import { IsBoolean, IsInt, IsString, Max, Min } from 'class-validator';
import { Context, Elicit, Field, Tool } from 'phantom-mcp';

export class ProjectArgs {
  @Field({ description: 'The project' })
  @IsString()
  project!: string;

  @Field({ description: 'Milliseconds each of the three steps takes' })
  @IsInt() @Min(0) @Max(60_000)
  stepMs = 2_000;
}

@Elicit({ message: 'The archive is ready. Publish it?' })
export class PublishConfirmation {
  @Field({ title: 'Publish' })
  @IsBoolean()
  publish!: boolean;
}

export class ExportTools {
  @Tool({ description: 'Exports a project as an archive (takes minutes)', task: 'optional' })
  async exportProject(args: ProjectArgs, ctx: Context) {
    await ctx.progress(0, 3, 'collecting files');
    await ctx.sleep(args.stepMs); // rejects, ending the call, once the task is cancelled
    await ctx.progress(1, 3, 'compressing');
    await ctx.sleep(args.stepMs);
    const answer = await ctx.elicit(PublishConfirmation); // the task is input_required meanwhile
    const published = answer.action === 'accept' && answer.content.publish;
    await ctx.progress(2, 3, published ? 'publishing' : 'keeping it private');
    await ctx.sleep(args.stepMs);
    return { project: args.project, published, task: ctx.task?.id ?? null };
  }
}
// #endregion tool

// #region explicit
@Elicit({ message: 'Delete the project and its history for good?' })
export class DeleteConfirmation {
  @Field({ title: 'Delete' })
  @IsBoolean()
  confirm!: boolean;
}

export class CleanupTools {
  @Tool({ description: 'Deletes a project and its history', task: 'required', taskStart: 'explicit' })
  async deleteProject(args: ProjectArgs, ctx: Context) {
    const answer = await ctx.elicit(DeleteConfirmation); // asked in the request itself
    if (answer.action !== 'accept' || !answer.content.confirm) return `Kept ${args.project}.`;
    await ctx.runAsTask(); // the client gets the task now; the rest runs on it
    await ctx.sleep(args.stepMs); // ctx.signal is now the task's: tasks/cancel stops this
    return `Deleted ${args.project}.`;
  }
}
// #endregion explicit

// #region server
import { PhantomServer } from 'phantom-mcp';

export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'exports',
    version: '1.0.0',
    providers: [ExportTools, CleanupTools],
    forms: [PublishConfirmation, DeleteConfirmation], // checked at start-up
    tasks: { defaultTtlMs: 30 * 60_000, maxActivePerOwner: 5 }, // every other limit keeps its default
  });
}
// #endregion server
