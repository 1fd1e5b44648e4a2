import 'reflect-metadata';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, textOf } from 'phantom-mcp/testing';
import { createServer, DocsFolder } from '../../../docs/examples/resources';
import { failureOf } from '../../support/failure-of';

/** The text of the first contents of a read. */
async function read(client: Client, uri: string) {
  const { contents } = await client.readResource({ uri });
  return contents[0] as { uri: string; mimeType?: string; text?: string; blob?: string };
}

describe('docs/examples/resources.ts (the resources guide)', () => {
  let client: Client;

  beforeEach(async () => {
    client = await connect(createServer());
  });

  afterEach(async () => {
    await client.close();
  });

  describe('fixed resources', () => {
    it('are listed with the MIME types they declare, beside the notes the template\'s lister names', async () => {
      const { resources } = await client.listResources();
      expect(resources.map(({ uri, mimeType }) => ({ uri, mimeType }))).to.deep.equal([
        { uri: 'notes://readme', mimeType: 'text/markdown' },
        { uri: 'notes://stats', mimeType: undefined },
        { uri: 'notes://pixel.png', mimeType: 'image/png' },
        { uri: 'notes://notes/welcome', mimeType: 'text/markdown' },
        { uri: 'notes://notes/roadmap', mimeType: 'text/markdown' },
      ]);
      expect(resources.find((r) => r.uri === 'notes://notes/welcome')).to.deep.include({ name: 'welcome', description: 'A note by its slug' });
    });

    it('read a string as text of the declared type, an object as JSON, bytes as a base64 blob', async () => {
      expect(await read(client, 'notes://readme')).to.deep.equal({ uri: 'notes://readme', mimeType: 'text/markdown', text: '# Notes\nRead `notes://notes/{slug}` for a note.' });
      expect(await read(client, 'notes://stats')).to.deep.equal({ uri: 'notes://stats', mimeType: 'application/json', text: '{"notes":2}' });
      const pixel = await read(client, 'notes://pixel.png');
      expect(pixel.mimeType).to.equal('image/png');
      expect(Buffer.from(pixel.blob!, 'base64').subarray(1, 4).toString()).to.equal('PNG');
    });
  });

  describe('the notes template', () => {
    it('is listed by resources/templates/list, with the others', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).to.deep.equal(['notes://notes/{slug}', 'calendar://days/{day}', 'files://docs/{+path}']);
    });

    it('serves a note it has, and answers one it has not with -32002, its message and the URI', async () => {
      expect(await read(client, 'notes://notes/welcome')).to.deep.include({ mimeType: 'text/markdown', text: '# Welcome\nServed by a resource template.' });
      const failure = await failureOf(client.readResource({ uri: 'notes://notes/__proto__' }));
      expect(failure.code).to.equal(-32002);
      expect(failure.message).to.contain('No note named __proto__');
      expect(failure.data).to.deep.equal({ uri: 'notes://notes/__proto__' });
    });

    it('answers a missing note with -32602 in the stateless era', async () => {
      const stateless = await connect(createServer(), { era: 'stateless' });
      const failure = await failureOf(stateless.readResource({ uri: 'notes://notes/nothing' }));
      expect(failure.code).to.equal(-32602);
      expect(failure.data).to.deep.equal({ uri: 'notes://notes/nothing' });
      await stateless.close();
    });

    it('completes {slug} from the method named in `complete`', async () => {
      const { completion } = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://notes/{slug}' }, argument: { name: 'slug', value: 'ro' } });
      expect(completion.values).to.deep.equal(['roadmap']);
    });
  });

  describe('typed template variables', () => {
    it('hand the handler a number, validated', async () => {
      expect(JSON.parse((await read(client, 'calendar://days/6')).text!)).to.deep.equal({ day: 6, weekend: true });
      for (const uri of ['calendar://days/400', 'calendar://days/tomorrow']) {
        const failure = await failureOf(client.readResource({ uri }));
        expect(failure.code, uri).to.equal(-32602);
        expect(failure.message, uri).to.contain('day');
      }
    });
  });

  describe('files read from a folder', () => {
    let root: string;
    let outside: string;

    before(() => {
      root = mkdtempSync(join(tmpdir(), 'docs-example-'));
      outside = mkdtempSync(join(tmpdir(), 'docs-outside-'));
      mkdirSync(join(root, 'guide'));
      writeFileSync(join(root, 'guide', 'tools.md'), '# Tools');
      writeFileSync(join(outside, 'secret.txt'), 'secret');
      symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    });

    after(() => {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    });

    it('serves a file inside the folder, and answers every way out as not found', async () => {
      const files = await connect(createServer(), { overrides: [[DocsFolder, { root }]] });
      expect((await files.readResource({ uri: 'files://docs/guide/tools.md' })).contents[0]).to.deep.include({ text: '# Tools', mimeType: 'text/plain' });
      for (const uri of ['files://docs/../' + outside.split('/').pop() + '/secret.txt', `files://docs/${outside}/secret.txt`, 'files://docs/leak.txt', 'files://docs/guide/..%2F..%2Fetc%2Fpasswd']) {
        expect((await failureOf(files.readResource({ uri }))).code, uri).to.equal(-32002);
      }
      await files.close();
    });

    it('refuses a value that decodes to a control character before the handler runs', async () => {
      const failure = await failureOf(client.readResource({ uri: 'files://docs/index.md%00.txt' }));
      expect(failure.code).to.equal(-32602);
      expect(failure.message).to.contain('path');
    });
  });

  describe('updates', () => {
    it('reach a client subscribed to the note the edit tool changed', async () => {
      const updated = new Promise<string>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => resolve(params.uri)));
      await client.subscribeResource({ uri: 'notes://notes/welcome' });
      expect(textOf(await client.callTool({ name: 'edit', arguments: { slug: 'welcome', text: '# Hello' } }))).to.equal('Saved welcome');
      expect(await updated).to.equal('notes://notes/welcome');
      expect((await read(client, 'notes://notes/welcome')).text).to.equal('# Hello');
    });
  });
});
