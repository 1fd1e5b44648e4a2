import 'reflect-metadata';
import { expect } from 'chai';
import { z } from 'zod';
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { PhantomServer, Skill, SILENT_DIAGNOSTICS, skills, Tool, type Context } from '../../lib';
import type { SkillsExtension } from '../../lib/entries/extensions';
import type { HttpListener } from '../../lib/entries/http';
import { skillMd, skillsFolder } from '../support/skill-folders';
import { openSse } from './support/raw-http';
import { connectHttp, connectHttpListening } from './support/sdk-clients';
import { call, meta } from './support/stateless-client';
import { connectV2, type V2Era } from './support/sdk-v2-clients';

const SKILLS = 'io.modelcontextprotocol/skills';
const ANY_RESULT = z.object({}).passthrough();
const PDF_MD = skillMd('pdf-processing', 'Extract, fill, and assemble PDF documents', 'license: Apache-2.0\n');
const sha256 = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

class Tools {
  @Tool({ description: 'Echo' })
  echo() { return 'ok'; }
}

class ReportSkills {
  @Skill({ name: 'daily-report', description: "Assemble today's report" })
  daily(ctx: Context) {
    return { body: `# Daily\n\nFor ${String((ctx.principal as { sub?: string } | undefined)?.sub)}.\n`, files: { 'data/today.json': '{"ok":true}' } };
  }
}

/** Who the request says it is (header x-user); `ada` holds the scope pdf:read. */
const principalOf = (user: string) => ({ sub: user, scopes: user === 'ada' ? ['pdf:read'] : [] });

describe('skills: the Skills extension through the official client, in both eras', () => {
  let folder: ReturnType<typeof skillsFolder>;
  let extension: SkillsExtension;
  let server: PhantomServer;
  let listener: HttpListener;

  beforeEach(async () => {
    folder = skillsFolder({
      'pdf-processing/SKILL.md': PDF_MD,
      'pdf-processing/templates/invoice.md': '# Invoice\n',
      'hidden-skill/SKILL.md': skillMd('hidden-skill'),
      'scoped-skill/SKILL.md': skillMd('scoped-skill'),
      'outside.md': 'not in any skill',
    });
    extension = skills({ folder: folder.path, providers: [ReportSkills], scopes: { 'scoped-skill': ['pdf:read'] } });
    server = new PhantomServer({
      name: 'skills', version: '1', providers: [Tools], diagnostics: SILENT_DIAGNOSTICS, extensions: [extension],
      visible: (item) => item.kind !== 'skill' || item.name !== 'hidden-skill',
    });
    listener = await server.listen({ port: 0, authenticate: ({ headers }) => ({ allow: true, principal: principalOf(String(headers['x-user'] ?? 'eve')) }) });
  });

  afterEach(async () => {
    await listener.close();
    await server.close();
    folder.cleanup();
  });

  describe('the session era (official SDK v1 client)', () => {
    let client: Client;
    const connect = async (user = 'eve') => {
      ({ client } = await connectHttp(listener.url, {}, { 'x-user': user }));
      return client;
    };
    const request = (method: string, params: Record<string, unknown>) => client.request({ method, params } as never, ANY_RESULT);
    const refusal = (method: string, params: Record<string, unknown>) => request(method, params).then(() => undefined, (error) => error);
    afterEach(async () => client?.close());

    it('advertises the extension with directoryRead, beside the resources capability', async () => {
      await connect();
      const capabilities = client.getServerCapabilities() as Record<string, any>;
      expect(capabilities.extensions).to.deep.equal({ [SKILLS]: { directoryRead: true } });
      expect(capabilities).to.have.property('resources');
    });

    it('lists the visible skills, folder and provider, with their manifests', async () => {
      await connect();
      const { skills: listed } = await request('skills/list', {}) as { skills: any[] };
      expect(listed.map((skill) => skill.uri)).to.deep.equal(['skill://daily-report/SKILL.md', 'skill://pdf-processing/SKILL.md', 'skill://scoped-skill/SKILL.md']);
      expect(listed[0]).to.deep.equal({ uri: 'skill://daily-report/SKILL.md', frontmatter: { name: 'daily-report', description: "Assemble today's report" }, resources: 'dynamic' });
      expect(listed[1].frontmatter).to.deep.equal({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', license: 'Apache-2.0' });
      expect(listed[1].resources[0]).to.deep.equal({ uri: 'skill://pdf-processing/SKILL.md', digest: sha256(PDF_MD), size: Buffer.byteLength(PDF_MD) });
    });

    it('gets a skill by the URI of its SKILL.md and reads it as text/markdown, its digest matching', async () => {
      await connect();
      const { skill } = await request('skills/get', { uri: 'skill://pdf-processing/SKILL.md' }) as { skill: any };
      expect(skill.uri).to.equal('skill://pdf-processing/SKILL.md');
      const read = await client.readResource({ uri: 'skill://pdf-processing/SKILL.md' });
      expect(read.contents).to.deep.equal([{ uri: 'skill://pdf-processing/SKILL.md', mimeType: 'text/markdown', text: PDF_MD }]);
      expect(sha256((read.contents[0] as { text: string }).text)).to.equal(skill.resources[0].digest);
    });

    it('reads a provider skill, produced for this caller, its front matter written from the decorator', async () => {
      await connect('bob');
      const read = await client.readResource({ uri: 'skill://daily-report/SKILL.md' });
      expect((read.contents[0] as { text: string }).text).to.equal("---\nname: daily-report\ndescription: Assemble today's report\n---\n\n# Daily\n\nFor bob.\n");
      const data = await client.readResource({ uri: 'skill://daily-report/data/today.json' });
      expect(data.contents[0]).to.deep.include({ mimeType: 'application/json', text: '{"ok":true}' });
    });

    it('reads a directory: direct children, subdirectories as inode/directory; a file is -32602', async () => {
      await connect();
      expect(await request('resources/directory/read', { uri: 'skill://pdf-processing' })).to.deep.equal({
        resources: [
          { uri: 'skill://pdf-processing/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: Buffer.byteLength(PDF_MD) },
          { uri: 'skill://pdf-processing/templates', name: 'templates', mimeType: 'inode/directory' },
        ],
      });
      expect((await refusal('resources/directory/read', { uri: 'skill://pdf-processing/SKILL.md' }))?.code).to.equal(-32602);
    });

    it('refuses traversal out of a skill: nothing outside is read', async () => {
      await connect();
      for (const uri of ['skill://pdf-processing/../outside.md', 'skill://pdf-processing/%2E%2E/outside.md', 'skill://pdf-processing/..%2Foutside.md', 'skill://outside.md']) {
        const error = await client.readResource({ uri }).then(() => undefined, (e) => e);
        expect(error?.code, uri).to.equal(-32002);
      }
    });

    it('answers a hidden skill as unknown everywhere', async () => {
      await connect();
      expect((await refusal('skills/get', { uri: 'skill://hidden-skill/SKILL.md' }))?.code).to.equal(-32602);
      expect((await refusal('skills/get', { uri: 'skill://no-such-skill/SKILL.md' }))?.message)
        .to.equal((await refusal('skills/get', { uri: 'skill://hidden-skill/SKILL.md' }))?.message.replace('hidden-skill', 'no-such-skill'));
      expect((await refusal('resources/directory/read', { uri: 'skill://hidden-skill' }))?.code).to.equal(-32602);
      expect((await client.readResource({ uri: 'skill://hidden-skill/SKILL.md' }).then(() => undefined, (e) => e))?.code).to.equal(-32002);
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).to.deep.equal(['skill://daily-report/SKILL.md', 'skill://pdf-processing/SKILL.md', 'skill://scoped-skill/SKILL.md']);
      expect(resources[1]).to.deep.include({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', mimeType: 'text/markdown' });
    });

    it('refuses a skill to a caller without its scopes (over HTTP a 403 insufficient_scope), and serves it to one with them', async () => {
      await connect('eve');
      const refused = await refusal('skills/get', { uri: 'skill://scoped-skill/SKILL.md' });
      expect(refused?.code).to.equal(403);
      expect(refused?.message).to.include('"code":-32003').and.include('"requiredScopes":["pdf:read"]');
      expect((await client.readResource({ uri: 'skill://scoped-skill/SKILL.md' }).then(() => undefined, (e) => e))?.code).to.equal(403);
      await client.close();
      await connect('ada');
      expect(await request('skills/get', { uri: 'skill://scoped-skill/SKILL.md' })).to.have.nested.property('skill.uri', 'skill://scoped-skill/SKILL.md');
    });

    it('announces a skill added at run time with resources/list_changed, and lists it', async () => {
      ({ client } = await connectHttpListening(listener.url));
      const announced = new Promise<void>((resolve) => client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
      extension.add({ name: 'release-notes', description: 'Write release notes', body: '# Notes\n' });
      await announced;
      const { skills: listed } = await request('skills/list', {}) as { skills: { uri: string }[] };
      expect(listed.map((skill) => skill.uri)).to.include('skill://release-notes/SKILL.md');
    });
  });

  describe('the official SDK v2 client, in either era', () => {
    for (const era of ['stateless', 'session'] as V2Era[]) {
      it(`negotiates the extension, lists, gets and reads skills, and refuses hidden skills and traversal (${era})`, async () => {
        const client = await connectV2(listener.url, era);
        const request = (method: string, params: Record<string, unknown>) => client.request({ method, params } as never, ANY_RESULT as never) as Promise<Record<string, any>>;
        const failed = (promise: Promise<unknown>) => promise.then(() => undefined, (error) => error);
        try {
          expect((client.getServerCapabilities() as Record<string, any>).extensions[SKILLS]).to.deep.equal({ directoryRead: true });
          const listed = await request('skills/list', {});
          expect(listed.skills.map((skill: { uri: string }) => skill.uri)).to.deep.equal(['skill://daily-report/SKILL.md', 'skill://pdf-processing/SKILL.md', 'skill://scoped-skill/SKILL.md']);
          const got = await request('skills/get', { uri: 'skill://pdf-processing/SKILL.md' });
          expect(got.skill.resources[0]).to.deep.equal({ uri: 'skill://pdf-processing/SKILL.md', digest: sha256(PDF_MD), size: Buffer.byteLength(PDF_MD) });
          const read = await client.readResource({ uri: 'skill://pdf-processing/SKILL.md' });
          expect(read.contents).to.deep.equal([{ uri: 'skill://pdf-processing/SKILL.md', mimeType: 'text/markdown', text: PDF_MD }]);
          expect((await failed(request('skills/get', { uri: 'skill://hidden-skill/SKILL.md' })))?.code).to.equal(-32602);
          const hiddenRead = await failed(client.readResource({ uri: 'skill://hidden-skill/SKILL.md' }));
          const traversal = await failed(client.readResource({ uri: 'skill://pdf-processing/../outside.md' }));
          const unknown = await failed(client.readResource({ uri: 'skill://no-such-skill/SKILL.md' }));
          expect(unknown?.code).to.be.oneOf([-32002, -32602]);
          expect([hiddenRead?.code, traversal?.code]).to.deep.equal([unknown.code, unknown.code]);
        } finally {
          await client.close();
        }
      });
    }
  });

  describe('the stateless era (2026-07-28)', () => {
    const ask = (method: string, params: Record<string, unknown> = {}, user = 'eve') => call(listener.url, method, { ...params, _meta: meta() }, { 'x-user': user });

    it('advertises the extension in server/discover', async () => {
      const reply = await ask('server/discover');
      expect(reply.body.result.capabilities.extensions).to.deep.equal({ [SKILLS]: { directoryRead: true } });
    });

    it('lists and gets skills with resultType and the caching hint', async () => {
      const list = await ask('skills/list');
      expect(list.body.result).to.include({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
      expect(list.body.result.skills).to.have.length(3);
      const got = await ask('skills/get', { uri: 'skill://pdf-processing/SKILL.md' });
      expect(got.body.result).to.include({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
      expect(got.body.result.skill.uri).to.equal('skill://pdf-processing/SKILL.md');
      expect(got.body.result).not.to.have.property('nextCursor');
    });

    it('reads SKILL.md and directories, and answers a hidden skill as unknown', async () => {
      const read = await ask('resources/read', { uri: 'skill://pdf-processing/SKILL.md' });
      expect(read.body.result.contents).to.deep.equal([{ uri: 'skill://pdf-processing/SKILL.md', mimeType: 'text/markdown', text: PDF_MD }]);
      const directory = await ask('resources/directory/read', { uri: 'skill://pdf-processing/templates' });
      expect(directory.body.result).to.include({ resultType: 'complete' });
      expect(directory.body.result.resources).to.deep.equal([{ uri: 'skill://pdf-processing/templates/invoice.md', name: 'invoice.md', mimeType: 'text/markdown', size: 10 }]);
      expect((await ask('skills/get', { uri: 'skill://hidden-skill/SKILL.md' })).body.error.code).to.equal(-32602);
      expect((await ask('resources/read', { uri: 'skill://hidden-skill/SKILL.md' })).body.error.code).to.equal(-32602);
      expect((await ask('resources/read', { uri: 'skill://pdf-processing/../outside.md' })).body.error.code).to.equal(-32602);
    });

    it('announces a skill added at run time on a subscriptions/listen stream', async () => {
      const stream = await openSse(listener.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { _meta: meta(), notifications: { resourcesListChanged: true } } }),
      });
      expect((await stream.next()).method).to.equal('notifications/subscriptions/acknowledged');
      extension.add({ name: 'release-notes', description: 'Write release notes', body: '# Notes\n' });
      expect((await stream.next()).method).to.equal('notifications/resources/list_changed');
      stream.close();
    });
  });
});
