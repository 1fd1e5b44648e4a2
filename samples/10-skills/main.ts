import 'reflect-metadata';
import { join } from 'node:path';
import { IsString, Matches } from 'class-validator';
import { injectable } from 'tsyringe';
import { Field, PhantomServer, Skill, Tool, skills, type Context } from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

/** Where the sample's skill folders live: beside this file's source (the build does not copy them into dist/). */
export const SKILLS_FOLDER = join(__dirname, '../../../samples/10-skills/skills');

/** A service the live skill is built from: in a real server, your on-call rota. */
@injectable()
export class OnCallRota {
  current(): { primary: string; secondary: string } {
    return { primary: 'platform-team', secondary: 'storage-team' };
  }
}

/**
 * A skill written at read time: its SKILL.md says who is on call now, so it is published as
 * `resources: "dynamic"` (no digest can be known ahead of the read).
 */
@injectable()
export class LiveSkills {
  constructor(private readonly rota: OnCallRota) {}

  @Skill({ name: 'escalation', description: 'Escalate a production problem to whoever is on call right now' })
  escalation(_ctx: Context) {
    const { primary, secondary } = this.rota.current();
    return `# Escalation\n\nPage **${primary}** first; if nobody answers within 10 minutes, page **${secondary}**.\n`;
  }
}

export class ChangesArgs {
  @Field({ description: 'A tag range, e.g. v1.4.0..v1.5.0' })
  @IsString() @Matches(/^v\d+\.\d+\.\d+\.\.v\d+\.\d+\.\d+$/)
  range!: string;
}

/** The tool the release-notes skill tells the model to call. */
export class ReleaseTools {
  @Tool({ description: 'The changes merged in a tag range', readOnly: true })
  mergedChanges(args: ChangesArgs) {
    return { range: args.range, changes: ['Add `skills()` to serve agent skills', 'Fix paging of resources/list'] };
  }
}

/**
 * Skills (the `io.modelcontextprotocol/skills` extension) from a folder of skill directories and
 * from a decorated provider, beside ordinary tools. A client lists them with `skills/list`, loads
 * one with `skills/get` and reads its files with `resources/read` (`skill://release-notes/SKILL.md`).
 */
export function createServer(folder = SKILLS_FOLDER): PhantomServer {
  return new PhantomServer({
    name: 'team-skills',
    version: '1.0.0',
    providers: [ReleaseTools],
    extensions: [skills({ folder, providers: [LiveSkills] })],
    store: storeFromEnv(),
  });
}

if (require.main === module) void runSample(createServer());
