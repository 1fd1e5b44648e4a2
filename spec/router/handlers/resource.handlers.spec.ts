import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PhantomServer, Resource, SILENT_DIAGNOSTICS, type PhantomServerOptions } from '../../../lib';
import { connect } from 'phantom-mcp/testing';

const errorOf = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected an error'), (error: McpError) => error);

/** Echoes the decoded values it is given, and records them: what a handler would have been handed. */
class Files {
  static seen: string[] = [];

  @Resource('files://docs/{name}')
  file({ name }: { name: string }): string {
    Files.seen.push(name);
    return `file ${JSON.stringify(name)}`;
  }

  @Resource('files://tree{/segments*}')
  tree({ segments }: { segments: string[] }): string {
    Files.seen.push(...segments);
    return segments.join('/');
  }
}

describe('resources/read', () => {
  let client: Client;

  async function connectTo(options: Partial<PhantomServerOptions> = {}): Promise<Client> {
    const server = new PhantomServer({ name: 'files', version: '1', providers: [Files], diagnostics: SILENT_DIAGNOSTICS, ...options });
    return (client = await connect(server));
  }

  beforeEach(() => { Files.seen = []; });
  afterEach(async () => { await client?.close(); });

  context('when a template value decodes to a control character', () => {
    for (const [encoded, code] of [['%00', 'U+0000'], ['%0A', 'U+000A'], ['%1B', 'U+001B'], ['%7F', 'U+007F'], ['%C2%85', 'U+0085']] as const) {
      it(`refuses ${encoded} with -32602 naming the variable and ${code}, without calling the handler`, async () => {
        await connectTo();
        const error = await errorOf(client.readResource({ uri: `files://docs/report${encoded}.txt` }));
        expect(error.code).to.equal(-32602);
        expect(error.message).to.contain('The value of {name}').and.contain(`control character (${code})`);
        expect(Files.seen).to.deep.equal([]);
      });
    }

    it('refuses one in any part of an exploded list', async () => {
      await connectTo();
      const error = await errorOf(client.readResource({ uri: 'files://tree/a/b%00c' }));
      expect(error.code).to.equal(-32602);
      expect(error.message).to.contain('The value of {segments}');
      expect(Files.seen).to.deep.equal([]);
    });

    it('keeps serving: the next read answers', async () => {
      await connectTo();
      await errorOf(client.readResource({ uri: 'files://docs/a%00' }));
      const result = await client.readResource({ uri: 'files://docs/readme.md' });
      expect(result.contents[0]).to.deep.include({ text: 'file "readme.md"' });
    });

    it('passes it on when allowTemplateControlChars is set', async () => {
      await connectTo({ allowTemplateControlChars: true });
      await client.readResource({ uri: 'files://docs/a%00b' });
      expect(Files.seen).to.deep.equal(['a\u0000b']);
    });
  });

  context('when a template value decodes to a relative path', () => {
    it('passes it as decoded (RFC 6570): checking it is the handler\'s part', async () => {
      await connectTo();
      await client.readResource({ uri: 'files://docs/..%2F..%2Fetc%2Fpasswd' });
      expect(Files.seen).to.deep.equal(['../../etc/passwd']);
    });
  });
});
