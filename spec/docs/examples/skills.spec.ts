import 'reflect-metadata';
import { expect } from 'chai';
import { z } from 'zod';
import { McpError, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect } from 'phantom-mcp/testing';
import { PhantomServer, skills } from 'phantom-mcp';
import { createServer, publishStyleGuide, SKILLS_FOLDER } from '../../../docs/examples/skills';
import { eventually } from '../../support/eventually';

const ANY_RESULT = z.object({}).passthrough();
/** A caller whose verified token grants `scopes` (what `oauthResourceServer` would attach). */
const callerWith = (scopes: string[]) => ({ subject: 'ada', issuer: 'https://id.example.com', scopes, audience: ['https://mcp.example.com'], claims: {} });
/** The text of a read's first content. */
const textIn = (contents: readonly object[]) => (contents[0] as { text?: string }).text;
type Client = Awaited<ReturnType<typeof connect>>;
const request = (client: Client, method: string, params: Record<string, unknown> = {}) => client.request({ method, params } as never, ANY_RESULT) as Promise<any>;
const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as McpError);

/** What the skills guide (docs/guide/skills.md) claims, run against docs/examples/skills.ts and docs/examples/skills/. */
describe('docs/examples/skills.ts (the skills guide)', () => {
  it('advertises the extension with directoryRead', async () => {
    const client = await connect(createServer());
    const extensions = (client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions;
    expect(extensions).to.deep.include({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    await client.close();
  });

  it('skills/list shows the folder skill with its front matter and digests, the @Skill one as dynamic', async () => {
    const client = await connect(createServer());
    const { skills: listed } = await request(client, 'skills/list');
    expect(listed.map((skill: any) => skill.uri)).to.deep.equal(['skill://deploy-checklist/SKILL.md', 'skill://escalation/SKILL.md']);
    const [deploy, escalation] = listed;
    expect(deploy.frontmatter).to.deep.equal({
      name: 'deploy-checklist',
      description: 'Ship a service to production safely, step by step, with the rollback ready',
      license: 'MIT',
      metadata: { owner: 'platform-team' },
    });
    expect(deploy.resources.map((file: any) => file.uri)).to.deep.equal(['skill://deploy-checklist/SKILL.md', 'skill://deploy-checklist/references/rollback.md']);
    for (const file of deploy.resources) expect(file.digest).to.match(/^sha256:[0-9a-f]{64}$/);
    expect(escalation.resources).to.equal('dynamic');
    await client.close();
  });

  it('lists every SKILL.md in resources/list', async () => {
    const client = await connect(createServer());
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).to.include.members(['skill://deploy-checklist/SKILL.md', 'skill://escalation/SKILL.md']);
    await client.close();
  });

  it('reads the @Skill skill as written at read time, its front matter from the decorator', async () => {
    const client = await connect(createServer());
    const { contents } = await client.readResource({ uri: 'skill://escalation/SKILL.md' });
    expect(contents[0].mimeType).to.equal('text/markdown');
    expect(textIn(contents)).to.match(/^---\n[\s\S]*name: escalation[\s\S]*---\n/);
    expect(textIn(contents)).to.contain('Page **storage-team** first.');
    await client.close();
  });

  it('serves a scoped skill only to a caller whose token grants the scope (-32003 otherwise)', async () => {
    const granted = await connect(createServer(), { principal: callerWith(['deploy:read']) });
    const { contents } = await granted.readResource({ uri: 'skill://deploy-checklist/references/rollback.md' });
    expect(textIn(contents)).to.contain('Redeploy the previous tag');
    await granted.close();

    const refused = await connect(createServer(), { principal: callerWith([]) });
    expect((await failureOf(refused.readResource({ uri: 'skill://deploy-checklist/SKILL.md' })))?.code).to.equal(-32003);
    expect((await failureOf(request(refused, 'skills/get', { uri: 'skill://deploy-checklist/SKILL.md' })))?.code).to.equal(-32003);
    await refused.close();
  });

  it('reads a skill directory\'s direct children, subdirectories as inode/directory', async () => {
    const client = await connect(createServer(), { principal: callerWith(['deploy:read']) });
    const { resources } = await request(client, 'resources/directory/read', { uri: 'skill://deploy-checklist' });
    expect(resources.map((child: any) => [child.uri, child.mimeType])).to.deep.equal([
      ['skill://deploy-checklist/SKILL.md', 'text/markdown'],
      ['skill://deploy-checklist/references', 'inode/directory'],
    ]);
    expect((await failureOf(request(client, 'resources/directory/read', { uri: 'skill://deploy-checklist/SKILL.md' })))?.code).to.equal(-32602);
    await client.close();
  });

  it('names nothing with a URI that is not the one the server writes (.. included)', async () => {
    const client = await connect(createServer(), { principal: callerWith(['deploy:read']) });
    expect((await failureOf(client.readResource({ uri: 'skill://deploy-checklist/references/../SKILL.md' })))?.code).to.equal(-32002);
    expect((await failureOf(request(client, 'skills/get', { uri: 'skill://nothing-here/SKILL.md' })))?.code).to.equal(-32602);
    await client.close();
  });

  it('gives its results the cache hint ttlMs 0, private, in 2026-07-28', async () => {
    const client = await connect(createServer(), { era: 'stateless' });
    expect(await request(client, 'skills/list')).to.include({ ttlMs: 0, cacheScope: 'private' });
    await client.close();
  });

  it('add() serves a skill at run time and announces the change', async () => {
    const extension = skills({ folder: SKILLS_FOLDER });
    const server = new PhantomServer({ name: 'team-skills', version: '1.0.0', providers: [], extensions: [extension] });
    const client = await connect(server);
    let changes = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void (changes += 1));
    expect(publishStyleGuide(extension)).to.deep.include({ added: ['style-guide'] });
    const { skills: listed } = await request(client, 'skills/list');
    expect(listed.map((skill: any) => skill.uri)).to.include('skill://style-guide/SKILL.md');
    const { contents } = await client.readResource({ uri: 'skill://style-guide/examples/good.md' });
    expect(textIn(contents)).to.equal('Saved. Your changes are live.\n');
    await eventually('resources/list_changed is announced', () => changes > 0);
    await client.close();
  });
});
