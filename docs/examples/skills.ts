// Skills (the io.modelcontextprotocol/skills extension): a folder of SKILL.md skills, a skill
// written at read time, and one added at run time.
// Included in docs/guide/skills.md; run by spec/docs/examples/skills.spec.ts.
import 'reflect-metadata';
import { join } from 'node:path';

/** docs/examples/skills/, from the compiled file in dist/docs/examples/ (the build does not copy it). */
export const SKILLS_FOLDER = join(__dirname, '../../../docs/examples/skills');

// #region live
import { injectable } from 'tsyringe';
import { Skill, type Context } from 'phantom-mcp';

@injectable()
export class OnCallRota {
  current(): string {
    return 'storage-team';
  }
}

@injectable()
export class LiveSkills {
  constructor(private readonly rota: OnCallRota) {}

  @Skill({ name: 'escalation', description: 'Escalate a production problem to whoever is on call now' })
  escalation(_ctx: Context) {
    return `# Escalation\n\nPage **${this.rota.current()}** first.\n`; // or { body, files }
  }
}
// #endregion live

// #region server
import { IsString } from 'class-validator';
import { Field, PhantomServer, skills, Tool } from 'phantom-mcp';

export class ServiceArgs {
  @Field({ description: 'The service, e.g. billing' })
  @IsString()
  service!: string;
}

export class DeployTools {
  @Tool({ description: 'Whether a deploy of the service is running', readOnly: true })
  deployStatus(args: ServiceArgs) {
    return `No deploy of ${args.service} is running.`;
  }
}

export function createServer(folder = SKILLS_FOLDER): PhantomServer {
  return new PhantomServer({
    name: 'team-skills',
    version: '1.0.0',
    providers: [DeployTools],
    extensions: [
      skills({
        folder, // docs/examples/skills: one directory per skill, each with a SKILL.md
        providers: [LiveSkills], // @Skill methods, written at read time
        scopes: { 'deploy-checklist': ['deploy:read'] }, // a token must grant these to read it
      }),
    ],
  });
}
// #endregion server

// #region runtime
import type { SkillChanges, SkillsExtension } from 'phantom-mcp/extensions';

export function publishStyleGuide(extension: SkillsExtension): SkillChanges {
  return extension.add({
    name: 'style-guide',
    description: 'Write user-facing text in the house style',
    body: '# Style guide\n\nShort sentences. See examples/good.md.\n',
    files: { 'examples/good.md': 'Saved. Your changes are live.\n' },
  });
}
// #endregion runtime
