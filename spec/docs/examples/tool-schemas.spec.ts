import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { IsInt } from 'class-validator';
import { Field, PhantomServer, Tool } from 'phantom-mcp';
import { connect, structuredOf, textOf } from 'phantom-mcp/testing';
import { createServer } from '../../../docs/examples/tool-schemas';

/** What the page warns of: a tool whose result breaks its own `output` DTO. */
class Misreported {
  @Field({ description: 'Highest temperature' }) @IsInt() high!: number;
}

class BrokenTools {
  @Tool({ description: 'Returns a result its output DTO refuses', output: Misreported })
  broken(): Misreported {
    return { high: 'warm', extra: true } as unknown as Misreported;
  }
}

describe('docs/examples/tool-schemas.ts (the tools guide: output, inputSchema, enums, converters)', () => {
  let client: Client;

  beforeEach(async () => {
    client = await connect(createServer());
  });

  afterEach(async () => {
    await client.close();
  });

  async function inputSchemaOf(name: string): Promise<Record<string, unknown>> {
    const { tools } = await client.listTools();
    return tools.find((tool) => tool.name === name)!.inputSchema as Record<string, unknown>;
  }

  it('advertises the output DTO as outputSchema and sends a conforming result as structuredContent', async () => {
    const { tools } = await client.listTools();
    const today = tools.find((tool) => tool.name === 'today')!;
    expect(today.outputSchema).to.deep.include({ type: 'object', required: ['city', 'high'], additionalProperties: false });
    const result = await client.callTool({ name: 'today', arguments: { city: 'Oslo' } });
    expect(structuredOf(result)).to.deep.equal({ city: 'Oslo', high: 18 });
  });

  it('answers a result that breaks the output DTO with an isError result naming the properties', async () => {
    const outcome = await new PhantomServer({ name: 'broken', version: '1.0.0', providers: [BrokenTools], diagnostics: { error: () => undefined, warn: () => undefined } })
      .handle('tools/call', { name: 'broken', arguments: {} }) as { result: { isError?: boolean; structuredContent?: unknown } };
    expect(outcome.result.isError).to.equal(true);
    expect(outcome.result.structuredContent).to.equal(undefined);
    expect(textOf(outcome.result as never)).to.contain('does not match its output schema').and.to.contain('high');
  });

  it('advertises a hand-written inputSchema as written, enforces it, and hands the handler the arguments as sent', async () => {
    expect(await inputSchemaOf('add')).to.deep.equal({
      type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false,
    });
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).to.equal('3');
    const refused = await client.callTool({ name: 'add', arguments: { a: 1, b: 'two' } });
    expect(refused.isError).to.equal(true);
    expect(textOf(refused)).to.contain('b: must be number');
  });

  it('lists an enum\'s values, refuses others naming them, and tells a wrong type its type alone', async () => {
    expect((await inputSchemaOf('greet')).properties).to.deep.include({ tone: { type: 'string', enum: ['formal', 'casual'], description: 'How to greet' } });
    const member = await client.callTool({ name: 'greet', arguments: { tone: 'Formal' } });
    expect(textOf(member)).to.contain('tone: must be one of the following values: formal, casual');
    const wrongType = await client.callTool({ name: 'greet', arguments: { tone: 'casual', times: 'twice' } });
    expect(textOf(wrongType)).to.contain('times: must be an integer number').and.not.to.contain('greater');
    expect(textOf(await client.callTool({ name: 'greet', arguments: { tone: 'casual', times: 2 } }))).to.equal('Hi! Hi!');
  });

  it('advertises what registerSchemaConverter says of a custom validator, and enforces the validator', async () => {
    expect((await inputSchemaOf('open')).properties).to.deep.include({ slug: { type: 'string', pattern: '^[a-z0-9-]+$', description: 'A page slug' } });
    const refused = await client.callTool({ name: 'open', arguments: { slug: 'Not a slug' } });
    expect(textOf(refused)).to.contain('slug: must be a slug: a-z, 0-9 and -');
    expect(textOf(await client.callTool({ name: 'open', arguments: { slug: 'release-notes' } }))).to.equal('/pages/release-notes');
  });
});
