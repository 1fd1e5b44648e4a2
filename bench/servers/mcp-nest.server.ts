import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { McpController, McpStrategy, ResourceTemplate, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import { echoSchema, fillerTool, registerSchema } from '../fixtures/peer.fixtures';
import { REGISTER_DESCRIPTION, registered, type Registration } from '../fixtures/registration';
import { argNumber, argValue, runContender } from './bench-channel';
import { announceHttp } from './http-host';

/**
 * MCP-Nest 2.x as its README sets it up: an `McpStrategy` with a `StreamableHttpTransport`,
 * connected as a NestJS microservice on the Nest (Express) application, tools and the template
 * on an `@McpController` with zod `parameters`. `--mode default` keeps the transport's defaults
 * (both eras; a 2025-era request is served statelessly, with a JSON answer); `--mode stateful`
 * sets `statefulMode: true` (2025-era sessions, SSE answers). Generated tools are registered with
 * `registerTool`, the strategy's documented runtime API; templates exist only as decorated
 * methods there, so this contender serves at most the echo template.
 */
@McpController()
class BenchTools {
  @Tool({ name: 'register', description: REGISTER_DESCRIPTION, parameters: registerSchema })
  register(@Payload() args: Registration) {
    return { content: [{ type: 'text', text: registered(args) }] };
  }

  @Tool({ name: 'echo', description: 'Sends the text back', parameters: echoSchema, annotations: { readOnlyHint: true } })
  echo(@Payload() { text }: { text: string }) {
    return { content: [{ type: 'text', text }] };
  }
}

@McpController()
class BenchResources {
  @ResourceTemplate({ uriTemplate: 'bench://echo/{text}', name: 'echo', description: 'Sends the text back', mimeType: 'text/plain' })
  echo(@Payload() { uri, text }: { uri: string; text: string }) {
    return { contents: [{ uri, mimeType: 'text/plain', text }] };
  }
}

runContender(async () => {
  const tools = argNumber('tools', 1);
  const templates = argNumber('templates', 0);
  const mode = argValue('mode', 'default');
  if (mode !== 'default' && mode !== 'stateful') throw new Error('--mode must be default or stateful');
  if (templates > 1) throw new Error(`MCP-Nest declares resource templates only with decorators; this contender serves at most 1, not ${templates}`);

  const mcp = new McpStrategy({
    name: 'bench',
    version: '1.0.0',
    transports: [new StreamableHttpTransport(mode === 'stateful' ? { statefulMode: true } : {})],
    // Its per-request log lines would be measured with the server.
    logging: false,
  });
  for (let i = 0; i < tools - 1; i++) {
    const filler = fillerTool(i);
    mcp.registerTool({ name: filler.name, description: filler.description, parameters: filler.schema, handler: async (args) => ({ content: [{ type: 'text', text: String(args.text) }] }) });
  }
  const controllers: Type[] = templates === 1 ? [BenchTools, BenchResources] : [BenchTools];
  @Module({ controllers })
  class BenchModule {}

  const app = await NestFactory.create(BenchModule, { logger: ['error', 'warn'] });
  mcp.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy: mcp });
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  announceHttp(`http://127.0.0.1:${port}/mcp`, () => app.close());
});
