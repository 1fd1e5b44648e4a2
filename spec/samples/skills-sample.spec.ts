import 'reflect-metadata';
import { expect } from 'chai';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { Client as V2Client } from '@modelcontextprotocol/client';
import type { PhantomServer } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import * as sample from '../../samples/10-skills/main';
import { connectV2, type V2Era } from '../integration/support/sdk-v2-clients';

describe('samples', () => {
  describe('10-skills, through the official SDK v2 skills client (which verifies every file against its entry)', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    before(async () => {
      server = sample.createServer();
      listener = await server.listen({ port: 0 });
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    for (const era of ['stateless', 'session'] as V2Era[]) {
      describe(`in the ${era} era`, () => {
        let client: V2Client;
        let skills: SkillsClient;

        before(async () => {
          client = await connectV2(listener.url, era);
          skills = new SkillsClient(client);
        });
        after(() => client.close());

        it('lists the folder skills and the live one, each entry valid to the client', async () => {
          expect(skills.supported).to.equal(true);
          expect(skills.directoryRead).to.equal(true);
          const listing = await skills.list();
          expect(listing.invalid).to.deep.equal([]);
          expect(listing.skills.map((skill) => skill.uri)).to.have.members([
            'skill://escalation/SKILL.md', 'skill://incident-report/SKILL.md', 'skill://release-notes/SKILL.md',
          ]);
          expect(listing.skills.find((skill) => skill.uri === 'skill://escalation/SKILL.md')!.resources).to.equal('dynamic');
        });

        it('reads a folder skill and its template, each verified against the published digest and size', async () => {
          const { skill } = await skills.get('skill://release-notes/SKILL.md');
          const manifest = await skills.read(skill);
          expect(manifest.verified).to.equal(true);
          expect(manifest.frontmatter).to.deep.include({ name: 'release-notes', metadata: { owner: 'docs-team' } });
          expect(manifest.body).to.include('templates/release.md');
          const template = await skills.read(skill, 'templates/release.md');
          expect(template.verified).to.equal(true);
          expect(template.text).to.include('## Breaking changes');
        });

        it('reads the live skill, written at read time from a DI-built service', async () => {
          const { skill } = await skills.get('skill://escalation/SKILL.md');
          const manifest = await skills.read(skill);
          expect(manifest.frontmatter).to.deep.equal({ name: 'escalation', description: 'Escalate a production problem to whoever is on call right now' });
          expect(manifest.body).to.include('Page **platform-team** first');
        });

        it('lists a skill directory: its SKILL.md and its templates folder', async () => {
          const { resources } = await skills.readDirectory('skill://release-notes');
          expect(resources.map((r) => [r.uri, r.mimeType])).to.deep.include.members([
            ['skill://release-notes/SKILL.md', 'text/markdown'],
            ['skill://release-notes/templates', 'inode/directory'],
          ]);
        });
      });
    }
  });
});
