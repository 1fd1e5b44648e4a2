import 'reflect-metadata';
import { expect } from 'chai';
import { IsInt, IsString } from 'class-validator';
import { Field, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { call, meta } from './support/stateless-client';

class RouteArgs {
  @Field({ description: 'Region to route to', header: 'Region' }) @IsString() region!: string;
  @Field({ description: 'Shard number', header: 'Shard' }) @IsInt() shard!: number;
}

class RoutedTools {
  @Tool({ description: 'Says where it was routed', input: RouteArgs })
  route({ region, shard }: RouteArgs) {
    return `${region}/${shard}`;
  }

  @Tool({ description: 'Mirrors nothing' })
  plain() {
    return 'plain';
  }
}

const routed = (args: Record<string, unknown>, headers: Record<string, string | undefined>) => (url: string) =>
  call(url, 'tools/call', { _meta: meta(), name: 'route', arguments: args }, headers);

describe('Mcp-Param headers of a tools/call (2026-07-28)', () => {
  let server: PhantomServer;
  let listener: HttpListener;

  before(async () => {
    server = new PhantomServer({ name: 'routed', version: '1.0.0', providers: [RoutedTools], diagnostics: SILENT_DIAGNOSTICS });
    listener = await server.listen({ port: 0 });
  });

  after(async () => {
    await listener.close();
    await server.close();
  });

  context('when every mirrored argument has its header, agreeing with the body', () => {
    it('serves the call, a Base64-encoded value too', async () => {
      const literal = await routed({ region: 'eu-west1', shard: 7 }, { 'mcp-param-region': 'eu-west1', 'mcp-param-shard': '7' })(listener.url);
      expect(literal.body.result.content[0].text).to.equal('eu-west1/7');
      const encoded = await routed({ region: 'Zürich', shard: 7 }, { 'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`, 'mcp-param-shard': '7' })(listener.url);
      expect(encoded.body.result.content[0].text).to.equal('Zürich/7');
    });
  });

  const refusals: Array<[string, Record<string, unknown>, Record<string, string | undefined>]> = [
    ['a mirrored argument without its header', { region: 'eu-west1', shard: 7 }, { 'mcp-param-region': 'eu-west1' }],
    ['a header that disagrees with the body', { region: 'eu-west1', shard: 7 }, { 'mcp-param-region': 'us-east1', 'mcp-param-shard': '7' }],
    ['a number header that disagrees with the body', { region: 'eu-west1', shard: 7 }, { 'mcp-param-region': 'eu-west1', 'mcp-param-shard': '8' }],
    ['a header for an argument the body leaves out', { region: 'eu-west1' }, { 'mcp-param-region': 'eu-west1', 'mcp-param-shard': '7' }],
    ['a broken Base64 encoding', { region: 'eu-west1', shard: 7 }, { 'mcp-param-region': '=?base64?ZXU!?=', 'mcp-param-shard': '7' }],
  ];
  for (const [name, args, headers] of refusals) {
    context(`when the request has ${name}`, () => {
      it('refuses it with HTTP 400 and -32020, before the tool runs', async () => {
        const reply = await routed(args, headers)(listener.url);
        expect(reply.status).to.equal(400);
        expect(reply.body.error.code).to.equal(-32020);
      });
    });
  }

  context('when the tool mirrors no argument', () => {
    it('serves the call without any Mcp-Param header', async () => {
      const reply = await call(listener.url, 'tools/call', { _meta: meta(), name: 'plain', arguments: {} });
      expect(reply.body.result.content[0].text).to.equal('plain');
    });
  });
});
