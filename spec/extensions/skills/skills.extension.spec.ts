import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '../../../lib/context/context';
import { DefinitionError, InsufficientScopeError, ProtocolError } from '../../../lib/core/errors';
import type { JsonObject } from '../../../lib/core/wire.types';
import { skills, SkillsExtension } from '../../../lib/extensions/skills/skills.extension';
import type { SkillsOptions } from '../../../lib/extensions/skills/skills-options';
import type { TemplateExtensionResource } from '../../../lib/router/extensions/extension';
import { recordingHost, skillMd, skillsFolder, type RecordingHost } from '../../support/skill-folders';

const sha256 = (content: string | Uint8Array): string => `sha256:${createHash('sha256').update(content).digest('hex')}`;
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);

const PDF_MD = skillMd('pdf-processing', 'Extract, fill, and assemble PDF documents', 'license: Apache-2.0\nmetadata:\n  version: "2.1"\n');
const FORMS_MD = '# Forms\n';

function folderOf(extra: Record<string, string | Uint8Array> = {}) {
  return skillsFolder({
    'pdf-processing/SKILL.md': PDF_MD,
    'pdf-processing/references/FORMS.md': FORMS_MD,
    'pdf-processing/assets/logo.png': PNG,
    'pdf-processing/.secret': 'never served',
    'git-workflow/SKILL.md': skillMd('git-workflow'),
    ...extra,
  });
}

async function started(options: SkillsOptions, host: RecordingHost = recordingHost()): Promise<{ extension: SkillsExtension; host: RecordingHost; template: TemplateExtensionResource }> {
  const extension = skills(options);
  await extension.setup(host);
  return { extension, host, template: host.served[0] as TemplateExtensionResource };
}

function call(extension: SkillsExtension, method: string, params: JsonObject = {}, principal?: unknown): Promise<JsonObject> {
  return extension.methods[method].handle(params, new Context({ principal }));
}

async function failure(promise: Promise<unknown>): Promise<ProtocolError> {
  try {
    await promise;
  } catch (error) {
    return error as ProtocolError;
  }
  throw new Error('expected a failure');
}

async function setupFailure(options: SkillsOptions, host = recordingHost()): Promise<DefinitionError> {
  const error = await failure(skills(options).setup(host));
  expect(error).to.be.instanceOf(DefinitionError);
  return error as unknown as DefinitionError;
}

describe('SkillsExtension', () => {
  let folder: ReturnType<typeof folderOf>;
  beforeEach(() => {
    folder = folderOf();
  });
  afterEach(() => folder.cleanup());

  describe('#settings', () => {
    it('advertises directoryRead by default, and nothing when it is off', () => {
      expect(skills().settings()).to.deep.equal({ directoryRead: true });
      expect(skills({ directoryRead: false }).settings()).to.deep.equal({});
      expect(skills({ directoryRead: false }).methods).not.to.have.property('resources/directory/read');
    });

    it('needs the resources capability and serves clients that do not declare it', () => {
      const extension = skills();
      expect(extension.id).to.equal('io.modelcontextprotocol/skills');
      expect(extension.requires).to.deep.equal(['resources']);
      expect(extension.clientMustDeclare).to.equal(false);
    });
  });

  describe('loading a folder', () => {
    it('gives each skill its front matter as JSON and every file but dot-files with digest and size', async () => {
      const { extension } = await started({ folder: folder.path });
      const { skill } = await call(extension, 'skills/get', { uri: 'skill://pdf-processing/SKILL.md' }) as { skill: JsonObject };
      expect(skill).to.deep.equal({
        uri: 'skill://pdf-processing/SKILL.md',
        frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', license: 'Apache-2.0', metadata: { version: '2.1' } },
        resources: [
          { uri: 'skill://pdf-processing/SKILL.md', digest: sha256(PDF_MD), size: Buffer.byteLength(PDF_MD) },
          { uri: 'skill://pdf-processing/assets/logo.png', digest: sha256(PNG), size: PNG.byteLength },
          { uri: 'skill://pdf-processing/references/FORMS.md', digest: sha256(FORMS_MD), size: Buffer.byteLength(FORMS_MD) },
        ],
      });
    });

    it('reports every problem of every skill at once', async () => {
      folder.write({
        'Bad_Name/SKILL.md': skillMd('Bad_Name'),
        'double--dash/SKILL.md': skillMd('double--dash'),
        'other-name/SKILL.md': skillMd('not-other-name'),
        'undescribed/SKILL.md': '---\nname: undescribed\n---\nbody\n',
        'no-manifest/README.md': 'no SKILL.md here',
        'no-front-matter/SKILL.md': '# just markdown\n',
      });
      symlinkSync(join(folder.path, 'git-workflow', 'SKILL.md'), join(folder.path, 'pdf-processing', 'link.md'));
      const error = await setupFailure({ folder: folder.path });
      const text = error.problems.join('\n');
      expect(error.problems).to.have.length(7);
      expect(text).to.match(/skill "Bad_Name".*lowercase/);
      expect(text).to.match(/skill "double--dash".*"--"/);
      expect(text).to.match(/skill "other-name".*must equal its directory's name/);
      expect(text).to.match(/skill "undescribed".*description/);
      expect(text).to.match(/skill "no-manifest".*no SKILL\.md/);
      expect(text).to.match(/skill "no-front-matter".*front matter/);
      expect(text).to.match(/skill "pdf-processing".*link\.md: symlinks are refused/);
    });

    it('refuses a skill whose directory is a symlink', async () => {
      symlinkSync(join(folder.path, 'git-workflow'), join(folder.path, 'linked'));
      const error = await setupFailure({ folder: folder.path });
      expect(error.problems).to.deep.equal([`skills: skill "linked" (${join(folder.path, 'linked')}): symlinks are refused`]);
    });

    it('holds each skill to maxFilesPerSkill and maxSkillBytes', async () => {
      const error = await setupFailure({ folder: folder.path, maxFilesPerSkill: 2, maxSkillBytes: 100 });
      expect(error.problems).to.have.length(2);
      expect(error.problems[0]).to.match(/pdf-processing.*more than 2 files/);
      expect(error.problems[1]).to.match(/pdf-processing.*more than 100 bytes/);
    });

    it('reports a folder that cannot be read', async () => {
      const error = await setupFailure({ folder: join(folder.path, 'missing') });
      expect(error.problems[0]).to.match(/skills folder .*missing: cannot be read \(ENOENT\)/);
    });

    context('with invalidSkills: skip', () => {
      it('serves the valid skills and warns about each invalid one', async () => {
        folder.write({ 'Bad_Name/SKILL.md': skillMd('Bad_Name') });
        const { extension, host } = await started({ folder: folder.path, invalidSkills: 'skip' });
        expect(extension.names).to.deep.equal(['git-workflow', 'pdf-processing']);
        expect(host.warnings).to.have.length(1);
        expect(host.warnings[0]).to.match(/skipped: skill "Bad_Name"/);
      });
    });
  });

  describe('skills/list', () => {
    it('lists the skills in pages whose cursors round-trip, no entry twice', async () => {
      folder.write(Object.fromEntries(['a1', 'a2', 'a3'].map((name) => [`${name}/SKILL.md`, skillMd(name)])));
      const { extension } = await started({ folder: folder.path, pageSize: 2 });
      const uris: string[] = [];
      let cursor: unknown;
      let pages = 0;
      do {
        const page = await call(extension, 'skills/list', cursor === undefined ? {} : { cursor }) as { skills: { uri: string }[]; nextCursor?: string };
        uris.push(...page.skills.map((skill) => skill.uri));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined);
      expect(pages).to.equal(3);
      expect(uris).to.deep.equal(['a1', 'a2', 'a3', 'git-workflow', 'pdf-processing'].map((name) => `skill://${name}/SKILL.md`));
    });

    it('answers -32602 to a cursor it did not write', async () => {
      const { extension } = await started({ folder: folder.path });
      for (const cursor of ['nonsense', 42, Buffer.from('["resources/directory/read","x"]').toString('base64url')]) {
        expect((await failure(call(extension, 'skills/list', { cursor }))).code).to.equal(-32602);
      }
    });

    it('leaves out the skills the visible rule hides', async () => {
      const { extension } = await started({ folder: folder.path }, recordingHost((item) => item.kind !== 'skill' || item.name !== 'pdf-processing'));
      const { skills: listed } = await call(extension, 'skills/list') as { skills: { uri: string }[] };
      expect(listed.map((skill) => skill.uri)).to.deep.equal(['skill://git-workflow/SKILL.md']);
    });
  });

  describe('skills/get', () => {
    it('answers -32602 for an unknown skill, a hidden one, a file that is not SKILL.md, and a missing uri', async () => {
      const { extension } = await started({ folder: folder.path }, recordingHost((item) => item.kind !== 'skill' || item.name !== 'git-workflow'));
      for (const params of [{ uri: 'skill://nope/SKILL.md' }, { uri: 'skill://git-workflow/SKILL.md' }, { uri: 'skill://pdf-processing/references/FORMS.md' }, {}]) {
        const error = await failure(call(extension, 'skills/get', params));
        expect(error.code, JSON.stringify(params)).to.equal(-32602);
      }
    });

    it('refuses a caller without the skill\'s scopes with InsufficientScopeError', async () => {
      const { extension } = await started({ folder: folder.path, scopes: { 'pdf-processing': ['pdf:read'] } });
      const error = await failure(call(extension, 'skills/get', { uri: 'skill://pdf-processing/SKILL.md' }, { scopes: [] }));
      expect(error).to.be.instanceOf(InsufficientScopeError);
      expect(error.data).to.deep.equal({ requiredScopes: ['pdf:read'], missingScopes: ['pdf:read'] });
      const granted = await call(extension, 'skills/get', { uri: 'skill://pdf-processing/SKILL.md' }, { scopes: ['pdf:read'] });
      expect(granted).to.have.nested.property('skill.uri', 'skill://pdf-processing/SKILL.md');
    });

    it('passes the scopes to the visible rule', async () => {
      const seen: unknown[] = [];
      await call((await started({ folder: folder.path, scopes: { 'git-workflow': ['git:read'] } }, recordingHost((item) => {
        seen.push(item);
        return true;
      }))).extension, 'skills/list');
      expect(seen).to.deep.include({ kind: 'skill', name: 'git-workflow', uri: 'skill://git-workflow/SKILL.md', scopes: ['git:read'] });
    });
  });

  describe('resources/directory/read', () => {
    it('lists the direct children of a skill root, subdirectories as inode/directory without a trailing slash', async () => {
      folder.write({ 'pdf-processing/references/deep/x.md': 'x' });
      const { extension } = await started({ folder: folder.path });
      expect(await call(extension, 'resources/directory/read', { uri: 'skill://pdf-processing' })).to.deep.equal({
        resources: [
          { uri: 'skill://pdf-processing/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: Buffer.byteLength(PDF_MD) },
          { uri: 'skill://pdf-processing/assets', name: 'assets', mimeType: 'inode/directory' },
          { uri: 'skill://pdf-processing/references', name: 'references', mimeType: 'inode/directory' },
        ],
      });
      expect(await call(extension, 'resources/directory/read', { uri: 'skill://pdf-processing/references' })).to.deep.equal({
        resources: [
          { uri: 'skill://pdf-processing/references/FORMS.md', name: 'FORMS.md', mimeType: 'text/markdown', size: Buffer.byteLength(FORMS_MD) },
          { uri: 'skill://pdf-processing/references/deep', name: 'deep', mimeType: 'inode/directory' },
        ],
      });
    });

    it('pages the children with a cursor', async () => {
      const { extension } = await started({ folder: folder.path, pageSize: 2 });
      const first = await call(extension, 'resources/directory/read', { uri: 'skill://pdf-processing' }) as { resources: { uri: string }[]; nextCursor: string };
      const second = await call(extension, 'resources/directory/read', { uri: 'skill://pdf-processing', cursor: first.nextCursor }) as { resources: { uri: string }[]; nextCursor?: string };
      expect([...first.resources, ...second.resources].map((child) => child.uri)).to.have.length(3);
      expect(second.nextCursor).to.equal(undefined);
    });

    it('answers -32602 for a file, a trailing slash, a missing directory, traversal and a hidden skill', async () => {
      const { extension } = await started({ folder: folder.path }, recordingHost((item) => item.kind !== 'skill' || item.name !== 'git-workflow'));
      for (const uri of [
        'skill://pdf-processing/SKILL.md', 'skill://pdf-processing/', 'skill://pdf-processing/nope', 'skill://pdf-processing/references/..',
        'skill://pdf-processing/%2E%2E', 'skill://git-workflow', 'skill://', 'file:///etc',
      ]) {
        expect((await failure(call(extension, 'resources/directory/read', { uri }))).code, uri).to.equal(-32602);
      }
    });
  });

  describe('the skill resource template', () => {
    it('lists each visible SKILL.md with its front matter name and description', async () => {
      const { template } = await started({ folder: folder.path }, recordingHost((item) => item.kind !== 'skill' || item.name !== 'git-workflow'));
      expect(template.uriTemplate).to.equal('skill://{+path}');
      expect(await template.list!(new Context())).to.deep.equal([
        { uri: 'skill://pdf-processing/SKILL.md', name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', mimeType: 'text/markdown', size: Buffer.byteLength(PDF_MD) },
      ]);
    });

    it('reads SKILL.md as text/markdown text, and a binary file as a blob', async () => {
      const { template } = await started({ folder: folder.path });
      expect(await template.read('skill://pdf-processing/SKILL.md', {}, new Context())).to.deep.equal({ uri: 'skill://pdf-processing/SKILL.md', mimeType: 'text/markdown', text: PDF_MD });
      expect(await template.read('skill://pdf-processing/assets/logo.png', {}, new Context())).to.deep.equal({
        uri: 'skill://pdf-processing/assets/logo.png', mimeType: 'image/png', blob: Buffer.from(PNG).toString('base64'),
      });
    });

    it('types a file of unknown extension by its content: UTF-8 text as text/plain, else a blob', async () => {
      folder.write({ 'git-workflow/LICENSE': 'MIT\n', 'git-workflow/data': Uint8Array.from([0, 1, 2]) });
      const { template } = await started({ folder: folder.path });
      expect(await template.read('skill://git-workflow/LICENSE', {}, new Context())).to.deep.equal({ uri: 'skill://git-workflow/LICENSE', mimeType: 'text/plain', text: 'MIT\n' });
      expect(await template.read('skill://git-workflow/data', {}, new Context())).to.deep.equal({ uri: 'skill://git-workflow/data', mimeType: 'application/octet-stream', blob: 'AAEC' });
    });

    it('serves nothing outside a skill root, nor at a non-canonical URI, nor a dot-file', async () => {
      folder.write({ 'outside.md': 'outside the skills' });
      const { template } = await started({ folder: folder.path });
      for (const uri of [
        'skill://pdf-processing/../outside.md', 'skill://pdf-processing/%2E%2E/outside.md', 'skill://pdf-processing/..%2Foutside.md',
        'skill://pdf-processing/references%2FFORMS.md', 'skill://pdf-processing/references%5CFORMS.md', 'skill://pdf-processing/./SKILL.md',
        'skill://pdf-processing//SKILL.md', 'skill://pdf-processing/%53KILL.md', 'skill://pdf-processing/.secret', 'skill://pdf-processing',
        'skill://pdf-processing/references\\FORMS.md', 'skill://pdf-processing/SKILL.md?x', 'skill://outside.md',
      ]) {
        expect(await template.read(uri, {}, new Context()), uri).to.equal(undefined);
      }
    });

    it('knows nothing of a hidden skill, and its reads serve nothing', async () => {
      const { template } = await started({ folder: folder.path }, recordingHost((item) => item.kind !== 'skill' || item.name !== 'git-workflow'));
      expect(template.knows!('skill://git-workflow/SKILL.md', {}, undefined)).to.equal(false);
      expect(template.knows!('skill://pdf-processing/SKILL.md', {}, undefined)).to.equal(true);
      expect(await template.read('skill://git-workflow/SKILL.md', {}, new Context())).to.equal(undefined);
    });

    it('refuses a caller without the skill\'s scopes', async () => {
      const { template } = await started({ folder: folder.path, scopes: { 'pdf-processing': ['pdf:read'] } });
      expect(await failure(template.read('skill://pdf-processing/references/FORMS.md', {}, new Context({ principal: { scopes: [] } })))).to.be.instanceOf(InsufficientScopeError);
    });

    it('refuses a file changed on disk since loading rather than serve it against a stale digest', async () => {
      const { template, host } = await started({ folder: folder.path });
      writeFileSync(join(folder.path, 'pdf-processing/references/FORMS.md'), '# FORMS\n');
      const error = await failure(template.read('skill://pdf-processing/references/FORMS.md', {}, new Context()));
      expect(error.code).to.equal(-32603);
      expect(host.warnings[0]).to.match(/FORMS\.md changed content since the skills were loaded/);
    });

    it('refuses a file swapped for a symlink since loading', async () => {
      const { template } = await started({ folder: folder.path });
      const target = join(folder.path, 'pdf-processing/references/FORMS.md');
      writeFileSync(join(folder.path, 'elsewhere.md'), FORMS_MD);
      const { rmSync } = await import('node:fs');
      rmSync(target);
      symlinkSync(join(folder.path, 'elsewhere.md'), target);
      expect((await failure(template.read('skill://pdf-processing/references/FORMS.md', {}, new Context()))).code).to.equal(-32603);
    });
  });

  describe('with a prefix', () => {
    it('serves skill://<prefix>/<name>/SKILL.md and the prefix directories', async () => {
      const { extension, template } = await started({ folder: folder.path, prefix: 'acme/docs' });
      expect(template.uriTemplate).to.equal('skill://acme/docs/{+path}');
      const { skills: listed } = await call(extension, 'skills/list') as { skills: { uri: string }[] };
      expect(listed.map((skill) => skill.uri)).to.deep.equal(['skill://acme/docs/git-workflow/SKILL.md', 'skill://acme/docs/pdf-processing/SKILL.md']);
      expect(await call(extension, 'resources/directory/read', { uri: 'skill://acme' })).to.deep.equal({ resources: [{ uri: 'skill://acme/docs', name: 'docs', mimeType: 'inode/directory' }] });
      const docs = await call(extension, 'resources/directory/read', { uri: 'skill://acme/docs' }) as { resources: { uri: string }[] };
      expect(docs.resources.map((child) => child.uri)).to.deep.equal(['skill://acme/docs/git-workflow', 'skill://acme/docs/pdf-processing']);
      expect(await template.read('skill://git-workflow/SKILL.md', {}, new Context())).to.equal(undefined);
    });

    it('refuses a prefix with a dot segment', () => {
      expect(() => skills({ prefix: 'acme/../x' })).to.throw(RangeError, /prefix/);
    });
  });

  describe('#reload', () => {
    it('swaps in the folders as they are now, reports what changed and announces it', async () => {
      const { extension, host } = await started({ folder: folder.path });
      folder.write({ 'new-skill/SKILL.md': skillMd('new-skill'), 'git-workflow/notes.md': 'more' });
      const { rmSync } = await import('node:fs');
      rmSync(join(folder.path, 'pdf-processing'), { recursive: true });
      expect(await extension.reload()).to.deep.equal({ added: ['new-skill'], removed: ['pdf-processing'], changed: ['git-workflow'] });
      expect(host.changes).to.equal(1);
      expect(extension.names).to.deep.equal(['git-workflow', 'new-skill']);
      expect(await extension.reload()).to.deep.equal({ added: [], removed: [], changed: [] });
      expect(host.changes).to.equal(1);
    });

    it('changes nothing when the folders now hold a problem', async () => {
      const { extension, host } = await started({ folder: folder.path });
      folder.write({ 'new-skill/SKILL.md': skillMd('new-skill'), 'Bad/SKILL.md': skillMd('Bad') });
      const error = await failure(extension.reload());
      expect(error).to.be.instanceOf(DefinitionError);
      expect(extension.names).to.deep.equal(['git-workflow', 'pdf-processing']);
      expect(host.changes).to.equal(0);
    });
  });

  describe('#add and #remove', () => {
    it('serves an added skill with digests, announced, and stops serving it', async () => {
      const { extension, host, template } = await started({ folder: folder.path });
      expect(extension.add({ name: 'added-one', description: 'Added at run time', body: '# Added\n', files: { 'ref/a.txt': 'A' } })).to.deep.equal({ added: ['added-one'], removed: [], changed: [] });
      expect(host.changes).to.equal(1);
      const { skill } = await call(extension, 'skills/get', { uri: 'skill://added-one/SKILL.md' }) as { skill: { resources: { uri: string; digest: string }[] } };
      const read = await template.read('skill://added-one/SKILL.md', {}, new Context()) as { text: string };
      expect(skill.resources[0]).to.deep.include({ uri: 'skill://added-one/SKILL.md', digest: sha256(read.text) });
      expect(read.text).to.match(/^---\nname: added-one\ndescription: Added at run time\n---\n\n# Added\n$/);
      expect(extension.remove('added-one')).to.equal(true);
      expect(host.changes).to.equal(2);
      expect(extension.remove('added-one')).to.equal(false);
    });

    it('refuses a bad definition or a name a folder serves, changing nothing', async () => {
      const { extension, host } = await started({ folder: folder.path });
      expect(() => extension.add({ name: 'git-workflow', description: 'x', body: '' })).to.throw(DefinitionError, /already served/);
      expect(() => extension.add({ name: 'ok-name', description: 'x', body: '', files: { '../up.md': 'x' } })).to.throw(DefinitionError, /relative/);
      expect(() => extension.add({ name: '-bad', description: '', body: '' })).to.throw(DefinitionError, /start or end.*\n.*description/);
      expect(host.changes).to.equal(0);
    });
  });
});
