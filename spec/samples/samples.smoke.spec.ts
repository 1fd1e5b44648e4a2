import 'reflect-metadata';
import { expect } from 'chai';
import { SILENT_DIAGNOSTICS, type Context, type Diagnostics, type PhantomServer } from '../../lib';
import * as hello from '../../samples/01-hello-tool/main';
import * as resources from '../../samples/02-resources/main';
import * as prompts from '../../samples/03-prompts/main';
import * as elicitation from '../../samples/04-elicitation/main';
import { ConnectPage } from '../../samples/04-elicitation/connect-page';
import { PendingAnswers } from '../../samples/04-elicitation/pending-answers';
import * as di from '../../samples/05-dependency-injection/main';
import * as pipeline from '../../samples/06-pipeline/main';
import * as nest from '../../samples/08-nestjs/main';
import * as showcase from '../../samples/showcase/main';
import { testContext, type ElicitAnswer } from 'phantom-mcp/testing';
import { SEED_REQUESTED_SCHEMA } from '../support/seed-form';
import type { AddressInfo } from 'node:net';
import { connectHttp } from '../integration/support/sdk-clients';
import { post } from '../integration/support/raw-http';

/** A note slug nothing holds, and the names every plain object answers to. */
const NOT_NOTES = ['nope', '__proto__', 'constructor', 'hasOwnProperty', 'toString'];

async function expectNoNotes(server: PhantomServer): Promise<void> {
  for (const slug of NOT_NOTES) {
    const uri = `notes://notes/${slug}`;
    const outcome = await server.handle('resources/read', { uri });
    expect(outcome, uri).to.have.property('error').that.deep.include({ code: -32002, data: { uri } });
  }
}

async function ok(server: PhantomServer, method: string, params?: unknown, ctx?: Context): Promise<any> {
  const outcome = await server.handle(method, params, ctx);
  if ('error' in outcome) throw new Error(`${method} failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result;
}

describe('samples', () => {
  describe('01-hello-tool', () => {
    it('greets with the default greeting', async () => {
      const result = await ok(hello.createServer(), 'tools/call', { name: 'hello', arguments: { name: 'Ada' } });
      expect(result.content).to.deep.equal([{ type: 'text', text: 'Hello, Ada!' }]);
    });
  });

  describe('02-resources', () => {
    const server = resources.createServer();

    it('lists fixed resources and the notes the lister names', async () => {
      const listed = await ok(server, 'resources/list');
      expect(listed.resources.map((r: { uri: string }) => r.uri)).to.deep.equal([
        'notes://readme', 'notes://stats', 'notes://pixel.png', 'notes://notes/welcome', 'notes://notes/roadmap',
      ]);
    });

    it('reads a template, JSON and a blob', async () => {
      expect((await ok(server, 'resources/read', { uri: 'notes://notes/welcome' })).contents[0]).to.include({ mimeType: 'text/markdown' });
      expect((await ok(server, 'resources/read', { uri: 'notes://stats' })).contents[0]).to.deep.equal({ uri: 'notes://stats', mimeType: 'application/json', text: '{"notes":2}' });
      expect((await ok(server, 'resources/read', { uri: 'notes://pixel.png' })).contents[0]).to.include({ mimeType: 'image/png' }).and.have.property('blob');
    });

    it('answers resource not found for a slug it does not hold, including the names of Object.prototype', async () => {
      await expectNoNotes(server);
    });

    it('completes slugs', async () => {
      const completed = await ok(server, 'completion/complete', { ref: { type: 'ref/resource', uri: 'notes://notes/{slug}' }, argument: { name: 'slug', value: 'ro' } });
      expect(completed.completion.values).to.deep.equal(['roadmap']);
    });
  });

  describe('03-prompts', () => {
    it('plans a trip from string arguments', async () => {
      const got = await ok(prompts.createServer(), 'prompts/get', { name: 'plan', arguments: { city: 'Porto', days: '2' } });
      expect(got.messages[0].content.text).to.equal('Plan 2 days in Porto.');
    });
  });

  describe('04-elicitation', () => {
    const server = elicitation.createServer();
    const greet = (elicit?: ElicitAnswer) => ok(server, 'tools/call', { name: 'greet' }, testContext({ elicit }).ctx);

    it('sends the seed\'s example form exactly', async () => {
      const { ctx, elicitations } = testContext({ elicit: { action: 'decline' } });
      await ok(server, 'tools/call', { name: 'greet' }, ctx);
      expect(elicitations[0]).to.deep.include({ message: 'What is your info?', requestedSchema: SEED_REQUESTED_SCHEMA });
    });

    it('greets by name on accept', async () => {
      const result = await greet({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', role: 'dev' } });
      expect(result).to.deep.equal({ content: [{ type: 'text', text: 'Hello Ada' }] });
    });

    it('answers an error result on decline or cancel', async () => {
      expect((await greet({ action: 'decline' })).isError).to.equal(true);
      expect((await greet({ action: 'cancel' })).isError).to.equal(true);
    });

    it('greets a stranger when the client cannot elicit', async () => {
      expect(await greet()).to.deep.equal({ content: [{ type: 'text', text: 'Hello stranger' }] });
    });

    context('when the client supports URL elicitation', () => {
      const answers = new PendingAnswers();
      const urlServer = elicitation.createServer(new ConnectPage(answers, { publicUrl: 'http://127.0.0.1:3000' }));
      const authenticate = (answer: (params: any) => any) =>
        ok(urlServer, 'tools/call', { name: 'authenticate' }, testContext({ elicit: (params) => answer(params) }).ctx);

      it('sends the user to this server\'s own page and resumes with the name typed there', async () => {
        let sent: any;
        const result = await authenticate((params) => {
          sent = params;
          answers.settle(params.elicitationId, 'Ada');   // what the page does when the form is posted
          return { action: 'accept' };
        });
        expect(sent).to.include({ mode: 'url', message: 'Please sign in', url: `http://127.0.0.1:3000/connect/${sent.elicitationId}` });
        expect(result.content[0].text).to.equal('Authenticated as Ada');
      });

      it('gives the page up when the user declines', async () => {
        let id = '';
        const result = await authenticate((params) => ((id = params.elicitationId), { action: 'decline' }));
        expect(result.isError).to.equal(true);
        expect(answers.find(id)).to.equal(undefined);
      });
    });
  });

  describe('05-dependency-injection', () => {
    it('shares the injected service between calls', async () => {
      const server = di.createServer();
      expect((await ok(server, 'tools/call', { name: 'buy', arguments: { item: 'apple' } })).structuredContent).to.deep.equal({ item: 'apple', left: 2 });
      expect((await ok(server, 'tools/call', { name: 'stock', arguments: { item: 'apple' } })).structuredContent).to.deep.equal({ item: 'apple', count: 2 });
      expect((await ok(server, 'tools/call', { name: 'buy', arguments: { item: 'pear' } })).isError).to.equal(true);
    });
  });

  describe('06-pipeline', () => {
    const write = (server: PhantomServer) => server.handle('tools/call', { name: 'write', arguments: { slug: 'todo', text: 'ship it' } });

    it('refuses writes with -32003 while the injected notebook is frozen', async () => {
      const server = pipeline.createServer(SILENT_DIAGNOSTICS);
      expect((await ok(server, 'tools/call', { name: 'write', arguments: { slug: 'todo', text: 'ship it' } })).content[0].text).to.equal('Saved todo');
      await ok(server, 'tools/call', { name: 'freeze' });
      expect(await write(server)).to.have.property('error').that.deep.include({ code: -32003 });
      await ok(server, 'tools/call', { name: 'unfreeze' });
      expect(await write(server)).to.have.property('result');
    });

    it('counts a text once and answers it again from memory', async () => {
      const server = pipeline.createServer(SILENT_DIAGNOSTICS);
      const first = await ok(server, 'tools/call', { name: 'word_count', arguments: { text: 'one two three' } });
      const again = await ok(server, 'tools/call', { name: 'word_count', arguments: { text: 'one two three' } });
      expect(first.structuredContent).to.deep.equal({ words: 3, counted: 1 });
      expect(again.structuredContent).to.deep.equal({ words: 3, counted: 1 });
      expect((await ok(server, 'tools/call', { name: 'word_count', arguments: { text: 'four' } })).structuredContent).to.deep.equal({ words: 1, counted: 2 });
    });

    it('logs every call and refuses the 21st in a burst with -32029', async () => {
      const lines: string[] = [];
      const diagnostics: Diagnostics = { error: () => {}, warn: () => {}, info: (line) => lines.push(line) };
      const server = pipeline.createServer(diagnostics);
      for (let i = 0; i < 20; i += 1) await ok(server, 'tools/list');
      expect(await server.handle('tools/list')).to.have.property('error').that.deep.include({ code: -32029 });
      expect(lines).to.have.length(20);
      expect(lines[0]).to.match(/^tools\/list ok in /);
    });
  });

  describe('08-nestjs', () => {
    it('serves the tools Nest built, with the notebook and the guard Nest injected', async () => {
      const app = await nest.createApp();
      await app.init();
      try {
        const { server } = app.get(nest.McpEndpoint);
        expect((await ok(server, 'tools/call', { name: 'note_write', arguments: { slug: 'todo', text: 'ship it' } })).content[0].text).to.equal('Saved todo');
        expect(app.get(nest.Notebook).read('todo')).to.equal('ship it');
        app.get(nest.Notebook).locked = true;
        expect(await server.handle('tools/call', { name: 'note_write', arguments: { slug: 'todo', text: 'again' } })).to.have.property('error').that.deep.include({ code: -32003 });
        expect((await ok(server, 'tools/call', { name: 'note_read', arguments: { slug: 'todo' } })).content[0].text).to.equal('ship it');
      } finally {
        await app.close();
      }
    });

    context('when served over HTTP', () => {
      let app: Awaited<ReturnType<typeof nest.createApp>>;
      let url: string;

      before(async () => {
        app = await nest.createApp();
        await app.listen(0, '127.0.0.1');
        url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/mcp`;
      });
      after(() => app.close());

      it('takes a 200 KB note, past the 100 kB of Nest\'s own JSON parser', async () => {
        const text = 'x'.repeat(200 * 1024);
        const { client, transport } = await connectHttp(url);
        try {
          await client.callTool({ name: 'note_write', arguments: { slug: 'long', text } });
          expect(app.get(nest.Notebook).read('long')).to.equal(text);
        } finally {
          await transport.terminateSession();
          await client.close();
        }
      });

      it('answers malformed JSON with 400 and a JSON-RPC -32700 body', async () => {
        const reply = await post(url, '{"jsonrpc":');
        expect(reply.status).to.equal(400);
        expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      });
    });
  });

  describe('showcase', () => {
    it('serves every sample at once', async () => {
      const server = showcase.createServer();
      const { tools } = await ok(server, 'tools/list');
      expect(tools.map((t: { name: string }) => t.name)).to.include.members(['hello', 'greet', 'authenticate', 'buy']);
      expect((await ok(server, 'prompts/list')).prompts).to.have.length(3);
    });

    it('answers resource not found for a note it does not hold', async () => {
      await expectNoNotes(showcase.createServer());
    });
  });
});
