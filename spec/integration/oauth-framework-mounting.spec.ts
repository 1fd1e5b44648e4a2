import 'reflect-metadata';
import { expect } from 'chai';
import express, { type Request, type Response } from 'express';
import { fastify, type FastifyInstance } from 'fastify';
import {
  All, Controller, Get, Inject, Injectable, Module, Req, Res, UnauthorizedException, UseGuards,
  type CanActivate, type DynamicModule, type ExecutionContext, type INestApplication,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import { Context, PhantomServer, SILENT_DIAGNOSTICS, Tool, type AuthInfo } from '../../lib';
import { StreamableHttpHandler } from '../../lib/entries/http';
import { oauthResourceServer, type OAuthResourceServer } from '../../lib/entries/oauth';
import { AS_CLIENTS, AuthorizationServerFixture } from '../support/authorization-server.fixture';
import { bearer, connectWithClientCredentials, freePort } from './support/oauth-http';
import { INITIALIZE, post, send } from './support/raw-http';

class Notes {
  @Tool({ description: 'Read the notes', scopes: ['notes:read'] })
  notes_read(_: unknown, ctx: Context) {
    return { subject: ctx.auth!.subject };
  }

  @Tool({ description: 'Write a note', scopes: ['notes:write'] })
  notes_write() {
    return 'written';
  }
}

/** What the official client sees through a host: discovery from the 401, a token from the real authorization server, a call. */
async function officialClientCall(url: string, as: AuthorizationServerFixture) {
  const { client } = await connectWithClientCredentials(url, as, 'notes:read');
  const read = await client.callTool({ name: 'notes_read' });
  await client.close();
  return read.structuredContent;
}

/** What every mounting must answer: the metadata without a token, 401 naming it, 403 insufficient_scope naming the scope. */
function behavesAsAResourceServer(setting: () => { url: string; as: AuthorizationServerFixture }) {
  it('serves the protected-resource metadata at the path the host routes to the handler, without a token', async () => {
    const { url, as } = setting();
    const reply = await send(new URL('/.well-known/oauth-protected-resource/mcp', url).href, 'GET');
    expect(reply.status).to.equal(200);
    expect(reply.json).to.deep.include({ resource: url, authorization_servers: [as.issuer], scopes_supported: ['notes:read', 'notes:write'] });
  });

  it('answers a request without a token with 401 naming the metadata URL', async () => {
    const { url } = setting();
    const reply = await post(url, INITIALIZE);
    expect(reply.status).to.equal(401);
    expect(reply.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', url).href}"`);
  });

  it('serves the official client: discovery from the 401, a token for this resource, a scoped call', async () => {
    const { url, as } = setting();
    expect(await officialClientCall(url, as)).to.deep.equal({ subject: AS_CLIENTS.jwt.id });
  });

  it('answers a call lacking a scope with 403 insufficient_scope naming it', async () => {
    const { url, as } = setting();
    const reply = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'notes_write', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } }, {
      ...bearer(await as.token({ resource: url, scope: 'notes:read' })), 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'notes_write',
    });
    expect(reply.status).to.equal(403);
    expect(reply.headers.get('www-authenticate')).to.match(/error="insufficient_scope", scope="notes:write"$/);
  });
}

describe('StreamableHttpHandler with auth, mounted in a host framework', () => {
  let as: AuthorizationServerFixture;
  let server: PhantomServer;

  before(async () => {
    as = await AuthorizationServerFixture.start();
    server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], diagnostics: SILENT_DIAGNOSTICS });
  });
  after(async () => {
    await server.close();
    await as.close();
  });

  /** A resource server for an endpoint at `/mcp` on `port`. */
  function authFor(port: number): OAuthResourceServer {
    return oauthResourceServer({ issuer: as.issuer, audience: `http://127.0.0.1:${port}/mcp`, diagnostics: SILENT_DIAGNOSTICS });
  }

  describe('#handle', () => {
    context('when mounted in Express 5 after express.json(), the well-known path routed to it too', () => {
      let http: Server;
      let url: string;

      before(async () => {
        const port = await freePort();
        url = `http://127.0.0.1:${port}/mcp`;
        const mcp = server.httpHandler({ auth: authFor(port) });
        const app = express();
        app.use(express.json());
        app.all('/mcp', mcp.handle);
        app.get('/.well-known/oauth-protected-resource/mcp', mcp.handle);
        http = await new Promise<Server>((resolve) => { const s = app.listen(port, '127.0.0.1', () => resolve(s)); });
      });
      after(() => new Promise<void>((done) => { http.closeAllConnections(); http.close(() => done()); }));

      behavesAsAResourceServer(() => ({ url, as }));
    });

    context('when mounted in Fastify 5 with reply.hijack(), the well-known path routed to it too', () => {
      let app: FastifyInstance;
      let url: string;

      before(async () => {
        const port = await freePort();
        url = `http://127.0.0.1:${port}/mcp`;
        const mcp = server.httpHandler({ auth: authFor(port) });
        app = fastify();
        app.all('/mcp', async (request, reply) => {
          reply.hijack();
          await mcp.handle(request.raw, reply.raw, request.body);
        });
        app.get('/.well-known/oauth-protected-resource/mcp', async (request, reply) => {
          reply.hijack();
          await mcp.handle(request.raw, reply.raw);
        });
        await app.listen({ port, host: '127.0.0.1' });
      });
      after(() => app.close());

      behavesAsAResourceServer(() => ({ url, as }));
    });

    context('when mounted in NestJS 11 behind a guard on the controller that verifies the token and passes AuthInfo on', () => {
      let app: INestApplication;
      let url: string;
      const RESOURCE_SERVER = Symbol('OAuthResourceServer');

      /**
       * The app's own guard: the same resource server decides, a refusal keeps its status and
       * challenge, and the AuthInfo is left on the request for the app's other routes. The MCP
       * handler checks the token again with the same `auth` (a cache hit: a hash and a lookup).
       */
      @Injectable()
      class BearerGuard implements CanActivate {
        constructor(@Inject(RESOURCE_SERVER) private readonly auth: OAuthResourceServer) {}

        async canActivate(context: ExecutionContext): Promise<boolean> {
          const req = context.switchToHttp().getRequest<Request & { auth?: AuthInfo }>();
          const decision = await this.auth.authenticate({ method: req.method, url: req.url, headers: req.headers });
          if (decision.allow) {
            req.auth = decision.principal as AuthInfo;
            return true;
          }
          const res = context.switchToHttp().getResponse<Response>();
          if ('wwwAuthenticate' in decision && decision.wwwAuthenticate) res.setHeader('www-authenticate', decision.wwwAuthenticate);
          if (decision.status === 401) throw new UnauthorizedException(decision.message);
          return false;
        }
      }

      @Controller()
      class McpController {
        constructor(private readonly mcp: StreamableHttpHandler) {}

        @All('mcp')
        @UseGuards(BearerGuard)
        handle(@Req() req: Request, @Res() res: Response): Promise<void> {
          return this.mcp.handle(req, res);
        }

        @Get('whoami')
        @UseGuards(BearerGuard)
        whoami(@Req() req: Request & { auth: AuthInfo }) {
          return { subject: req.auth.subject };
        }

        /** Public: clients read it before they have a token. */
        @Get('.well-known/oauth-protected-resource/mcp')
        metadata(@Req() req: Request, @Res() res: Response): Promise<void> {
          return this.mcp.handle(req, res);
        }
      }

      @Module({})
      class McpModule {
        static serving(mcp: StreamableHttpHandler, auth: OAuthResourceServer): DynamicModule {
          return {
            module: McpModule,
            controllers: [McpController],
            providers: [{ provide: StreamableHttpHandler, useValue: mcp }, { provide: RESOURCE_SERVER, useValue: auth }, BearerGuard],
          };
        }
      }

      before(async () => {
        const port = await freePort();
        url = `http://127.0.0.1:${port}/mcp`;
        const auth = authFor(port);
        app = await NestFactory.create(McpModule.serving(server.httpHandler({ auth }), auth), { logger: false });
        await app.listen(port, '127.0.0.1');
      });
      after(() => app.close());

      behavesAsAResourceServer(() => ({ url, as }));

      it('leaves the verified AuthInfo on the request for the app\'s own routes', async () => {
        const reply = await send(new URL('/whoami', url).href, 'GET', bearer(await as.token({ resource: url, scope: 'notes:read' })));
        expect(reply.status).to.equal(200);
        expect(reply.json).to.deep.equal({ subject: AS_CLIENTS.jwt.id });
      });
    });
  });
});
