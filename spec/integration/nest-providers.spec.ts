import 'reflect-metadata';
import { expect } from 'chai';
import { All, Controller, Injectable, Module, Req, Res, type INestApplication, type OnModuleInit } from '@nestjs/common';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { IsString } from 'class-validator';
import type { Request, Response } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefinitionError, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import type { StreamableHttpHandler } from '../../lib/entries/http';
import { connectHttp } from './support/sdk-clients';

describe('PhantomServer', () => {
  describe('#constructor, with providers resolved from a NestJS 11 app', () => {
    @Injectable()
    class Ledger {
      readonly entries: string[] = [];
      record(entry: string): number { return this.entries.push(entry); }
    }

    class EntryArgs {
      @Field({ description: 'What to record' })
      @IsString()
      entry!: string;
    }

    /** Built by Nest, which injects the Ledger; the MCP server takes it from Nest. */
    @Injectable()
    class LedgerTools {
      constructor(private readonly ledger: Ledger) {}
      @Tool({ description: 'Records an entry' }) record({ entry }: EntryArgs) { return `entry ${this.ledger.record(entry)}: ${entry}`; }
    }

    /** Makes the MCP server once Nest has built every provider, asking Nest for the tools class. */
    @Injectable()
    class McpEndpoint implements OnModuleInit {
      server!: PhantomServer;
      handler!: StreamableHttpHandler;
      constructor(private readonly moduleRef: ModuleRef) {}
      onModuleInit() {
        this.server = new PhantomServer({
          name: 'nest', version: '1', providers: [LedgerTools], diagnostics: SILENT_DIAGNOSTICS,
          resolve: (cls) => this.moduleRef.get(cls, { strict: false }),
        });
        this.handler = this.server.httpHandler();
      }
    }

    @Controller()
    class McpController {
      constructor(private readonly endpoint: McpEndpoint) {}
      @All('mcp') handle(@Req() req: Request, @Res() res: Response) { return this.endpoint.handler.handle(req, res); }
    }

    context('when a Nest module holds the tools class and the service it injects, and mounts the endpoint', () => {
      @Module({ providers: [Ledger, LedgerTools, McpEndpoint], controllers: [McpController] })
      class LedgerModule {}

      let app: INestApplication;
      let url: string;

      before(async () => {
        app = await NestFactory.create(LedgerModule, { logger: false });
        await app.listen(0, '127.0.0.1');
        url = `http://127.0.0.1:${((app.getHttpServer() as Server).address() as AddressInfo).port}/mcp`;
      });
      after(async () => {
        await app.get(McpEndpoint).server.close();
        await app.close();
      });

      it('serves the official client a tool that uses the service Nest injected, the app\'s own instance', async () => {
        const { client, transport } = await connectHttp(url);
        const first = await client.callTool({ name: 'record', arguments: { entry: 'coffee' } });
        const second = await client.callTool({ name: 'record', arguments: { entry: 'tea' } });
        await transport.terminateSession();
        await client.close();
        expect([first.content, second.content]).to.deep.equal([[{ type: 'text', text: 'entry 1: coffee' }], [{ type: 'text', text: 'entry 2: tea' }]]);
        expect(app.get(Ledger).entries).to.deep.equal(['coffee', 'tea']);
      });
    });

    context('when the Nest module does not provide the tools class', () => {
      @Module({ providers: [Ledger, McpEndpoint], controllers: [McpController] })
      class IncompleteModule {}

      it('fails app.init() with a DefinitionError naming the class and what Nest said', async () => {
        const app = await NestFactory.create(IncompleteModule, { logger: false });
        const failed = await app.init().then(() => undefined, (error: unknown) => error);
        await app.close();
        expect(failed).to.be.instanceOf(DefinitionError);
        expect((failed as DefinitionError).problems).to.have.length(1);
        expect((failed as DefinitionError).problems[0]).to.match(/^LedgerTools: the resolve option threw: .*LedgerTools/);
      });
    });
  });
});
