import 'reflect-metadata';
import { expect } from 'chai';
import { Context } from '../../../lib/context/context';
import { DefinitionError } from '../../../lib/core/errors';
import { Skill } from '../../../lib/decorators/skill.decorator';
import { skills } from '../../../lib/extensions/skills/skills.extension';
import type { TemplateExtensionResource } from '../../../lib/router/extensions/extension';
import { recordingHost } from '../../support/skill-folders';

class Clock {
  now = 'noon';
}

class ReportSkills {
  built = 0;
  constructor(private readonly clock = new Clock()) {}

  @Skill({ name: 'daily-report', description: 'Assemble the daily report', scopes: ['reports:read'], metadata: { team: 'ops' } })
  daily(ctx: Context) {
    return { body: `# Daily at ${this.clock.now} for ${String(ctx.principal)}\n`, files: { 'data/today.csv': 'a,b\n', 'img/dot.bin': Uint8Array.from([0, 255]) } };
  }

  @Skill({ name: 'plain-body', description: 'Only a body' })
  plain() {
    return 'Just this.';
  }

  @Skill({ name: 'escaping', description: 'Produces a path out of its root' })
  escaping() {
    return { body: 'x', files: { '../outside.md': 'nope' } };
  }
}

describe('skills() with @Skill providers', () => {
  async function started() {
    const extension = skills({ providers: [ReportSkills] });
    const host = recordingHost();
    const built: unknown[] = [];
    host.resolve = (cls) => {
      const instance = new cls();
      built.push(instance);
      return instance;
    };
    await extension.setup(host);
    return { extension, template: host.served[0] as TemplateExtensionResource, built };
  }

  it('builds each provider once from the host and lists its skills as dynamic', async () => {
    const { extension, built } = await started();
    expect(built).to.have.length(1);
    const { skills: listed } = await extension.methods['skills/list'].handle({}, new Context());
    expect(listed).to.deep.equal([
      { uri: 'skill://daily-report/SKILL.md', frontmatter: { name: 'daily-report', description: 'Assemble the daily report', metadata: { team: 'ops' } }, resources: 'dynamic' },
      { uri: 'skill://escaping/SKILL.md', frontmatter: { name: 'escaping', description: 'Produces a path out of its root' }, resources: 'dynamic' },
      { uri: 'skill://plain-body/SKILL.md', frontmatter: { name: 'plain-body', description: 'Only a body' }, resources: 'dynamic' },
    ]);
  });

  it('produces SKILL.md at read time, front matter first, and the other files', async () => {
    const { template } = await started();
    const ctx = new Context({ principal: { toString: () => 'ada', scopes: ['reports:read'] } });
    const skillMd = await template.read('skill://daily-report/SKILL.md', {}, ctx) as { text: string; mimeType: string };
    expect(skillMd.mimeType).to.equal('text/markdown');
    expect(skillMd.text).to.equal('---\nname: daily-report\ndescription: Assemble the daily report\nmetadata:\n  team: ops\n---\n\n# Daily at noon for ada\n');
    expect(await template.read('skill://daily-report/data/today.csv', {}, ctx)).to.deep.equal({ uri: 'skill://daily-report/data/today.csv', mimeType: 'text/csv', text: 'a,b\n' });
    expect(await template.read('skill://daily-report/img/dot.bin', {}, ctx)).to.deep.equal({ uri: 'skill://daily-report/img/dot.bin', mimeType: 'application/octet-stream', blob: 'AP8=' });
    expect(await template.read('skill://plain-body/SKILL.md', {}, new Context())).to.have.property('text').that.match(/\n---\n\nJust this\.$/);
  });

  it('lists a produced skill\'s directories', async () => {
    const { extension } = await started();
    const ctx = new Context({ principal: { scopes: ['reports:read'] } });
    const { resources } = await extension.methods['resources/directory/read'].handle({ uri: 'skill://daily-report' }, ctx) as { resources: { uri: string; mimeType: string }[] };
    expect(resources.map((child) => [child.uri, child.mimeType])).to.deep.equal([
      ['skill://daily-report/SKILL.md', 'text/markdown'],
      ['skill://daily-report/data', 'inode/directory'],
      ['skill://daily-report/img', 'inode/directory'],
    ]);
  });

  it('refuses what a method produces out of its root, serving none of it', async () => {
    const { template } = await started();
    const error = await template.read('skill://escaping/SKILL.md', {}, new Context()).then(() => undefined, (e: Error) => e);
    expect(error?.message).to.match(/ReportSkills#escaping produced an invalid skill: "\.\.\/outside\.md"/);
  });

  it('reports every problem of the providers at once', async () => {
    class Broken {
      @Skill({ name: 'Bad', description: '' })
      one() { return ''; }

      @Skill({ name: 'daily-report', description: 'Taken by ReportSkills' })
      two() { return ''; }
    }
    class Empty {}
    const error = await skills({ providers: [ReportSkills, Broken, Empty] }).setup(recordingHost()).then(() => undefined, (e: DefinitionError) => e);
    expect(error).to.be.instanceOf(DefinitionError);
    expect(error!.problems).to.deep.equal([
      'skills: Broken#one: skill name "Bad" may hold only lowercase letters, digits and "-"',
      'skills: Broken#one: a description is required',
      'skills: Broken#two: the skill name "daily-report" is already served by ReportSkills#daily',
      'skills: Empty: a skills provider needs at least one @Skill method',
    ]);
  });
});
