import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { IsString } from 'class-validator';
import { Field, PhantomServer, Prompt, Resource, ResourceNotFoundError, ToolError, userText, type Diagnostics } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { connect } from 'phantom-mcp/testing';
import { call, meta } from './support/stateless-client';

describe('resource and prompt handlers that report not found', () => {
  class BookArgs {
    @Field({ description: 'A book slug' }) @IsString() slug!: string;
  }

  class Library {
    private readonly books = new Map([['dune', 'Dune, by Frank Herbert']]);

    @Resource('books://{slug}', { description: 'A book; nothing for an unknown slug' })
    book({ slug }: { slug: string }) { return this.books.get(slug); }

    @Resource('nulls://{slug}', { description: 'A book; null for an unknown slug' })
    orNull({ slug }: { slug: string }) { return this.books.get(slug) ?? null; }

    @Resource('shelf://{slug}', { description: 'A book; throws for an unknown slug' })
    shelf({ slug }: { slug: string }) {
      const book = this.books.get(slug);
      if (book === undefined) throw new ResourceNotFoundError(`No book named ${slug}`);
      return book;
    }

    @Resource('closed://{slug}', { description: 'Always refuses, in words for the caller' })
    closed() { throw new ToolError('The catalogue is closed today'); }

    @Prompt({ description: 'Summarise a book' })
    summary(args: BookArgs) {
      const book = this.books.get(args.slug);
      if (book === undefined) throw new ToolError(`No book named ${args.slug}; try "dune"`);
      return userText(`Summarise ${book}`);
    }
  }

  const logged: string[] = [];
  const diagnostics: Diagnostics = { error: (message) => logged.push(message), warn: (message) => logged.push(message) };
  const makeServer = () => new PhantomServer({ name: 'library', version: '1', providers: [Library], diagnostics });

  afterEach(() => {
    expect(logged, 'an expected not-found is no internal failure').to.deep.equal([]);
  });

  context('in the session era, through the official client', () => {
    let client: Client;
    before(async () => { client = await connect(makeServer()); });
    after(async () => { await client.close(); });

    const rejection = async (promise: Promise<unknown>): Promise<any> => {
      try {
        await promise;
      } catch (error) {
        return error;
      }
      throw new Error('expected a JSON-RPC error');
    };

    it('reads a resource that exists', async () => {
      expect((await client.readResource({ uri: 'books://dune' })).contents).to.deep.equal([{ uri: 'books://dune', mimeType: 'text/plain', text: 'Dune, by Frank Herbert' }]);
    });

    for (const [how, uri] of [['returns undefined', 'books://nope'], ['returns null', 'nulls://nope']]) {
      it(`answers -32002 with data.uri when the handler ${how}`, async () => {
        const error = await rejection(client.readResource({ uri }));
        expect(error).to.include({ code: -32002, message: `MCP error -32002: Resource not found: ${uri}` });
        expect(error.data).to.deep.equal({ uri });
      });
    }

    it('answers -32002 with data.uri and the handler\'s message for a ResourceNotFoundError', async () => {
      const error = await rejection(client.readResource({ uri: 'shelf://nope' }));
      expect(error).to.include({ code: -32002, message: 'MCP error -32002: No book named nope' });
      expect(error.data).to.deep.equal({ uri: 'shelf://nope' });
    });

    it('answers -32602 with its message for a ToolError thrown in a resource', async () => {
      const error = await rejection(client.readResource({ uri: 'closed://x' }));
      expect(error).to.include({ code: -32602, message: 'MCP error -32602: The catalogue is closed today' });
    });

    it('answers -32602 with its message for a ToolError thrown in a prompt', async () => {
      const error = await rejection(client.getPrompt({ name: 'summary', arguments: { slug: 'nope' } }));
      expect(error).to.include({ code: -32602, message: 'MCP error -32602: No book named nope; try "dune"' });
      expect((await client.getPrompt({ name: 'summary', arguments: { slug: 'dune' } })).messages[0].content)
        .to.deep.equal({ type: 'text', text: 'Summarise Dune, by Frank Herbert' });
    });
  });

  context('in the stateless era', () => {
    let server: PhantomServer;
    let listener: HttpListener;
    before(async () => {
      server = makeServer();
      listener = await server.listen({ port: 0 });
    });
    after(async () => {
      await listener.close();
      await server.close();
    });

    it('answers -32602 with data.uri when the handler returns nothing', async () => {
      const reply = await call(listener.url, 'resources/read', { _meta: meta(), uri: 'books://nope' });
      expect(reply.body.error).to.deep.equal({ code: -32602, message: 'Resource not found: books://nope', data: { uri: 'books://nope' } });
    });

    it('answers -32602 with data.uri and the handler\'s message for a ResourceNotFoundError', async () => {
      const reply = await call(listener.url, 'resources/read', { _meta: meta(), uri: 'shelf://nope' });
      expect(reply.body.error).to.deep.equal({ code: -32602, message: 'No book named nope', data: { uri: 'shelf://nope' } });
    });

    it('answers -32602 with its message for a ToolError thrown in a prompt', async () => {
      const reply = await call(listener.url, 'prompts/get', { _meta: meta(), name: 'summary', arguments: { slug: 'nope' } });
      expect(reply.body.error).to.deep.equal({ code: -32602, message: 'No book named nope; try "dune"' });
    });
  });
});
