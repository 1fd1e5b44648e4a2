import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { sdkServer, type Registry } from '../fixtures/sdk.fixtures';
import { argNumber, argValue, runContender } from './bench-channel';
import { readBody, serveHttp, type HttpHandler } from './http-host';

/**
 * The official SDK over Streamable HTTP with JSON responses (or, with `--answers sse`, the
 * transport's default: each answer as a short SSE stream), in the two shapes its documentation
 * gives for a Node server: stateless (a server and a transport per request) and stateful (one
 * server and transport per session, found again by `Mcp-Session-Id`).
 */
runContender(async () => {
  const registry: Registry = { tools: argNumber('tools', 1), templates: argNumber('templates', 0) };
  const mode = argValue('mode');
  const answers = argValue('answers', 'json');
  if (answers !== 'json' && answers !== 'sse') throw new Error('--answers must be json or sse');
  const enableJsonResponse = answers === 'json';
  if (mode !== 'stateless' && mode !== 'stateful') throw new Error('--mode must be stateless or stateful');
  await serveHttp(mode === 'stateless' ? stateless(registry, enableJsonResponse) : stateful(registry, enableJsonResponse));
});

function stateless(registry: Registry, enableJsonResponse: boolean): HttpHandler {
  return async (req, res) => {
    try {
      const body: unknown = JSON.parse(await readBody(req));
      // A fresh server and transport for every request, so concurrent clients' ids cannot collide.
      const server = sdkServer(registry);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch {
      internalError(res);
    }
  };
}

function stateful(registry: Registry, enableJsonResponse: boolean): HttpHandler {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  return async (req, res) => {
    try {
      const body: unknown = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (sessionId !== undefined || !isInitializeRequest(body)) return badRequest(res);
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse,
          onsessioninitialized: (id) => void transports.set(id, created),
        });
        created.onclose = () => {
          if (created.sessionId) transports.delete(created.sessionId);
        };
        await sdkServer(registry).connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    } catch {
      internalError(res);
    }
  };
}

function badRequest(res: ServerResponse): void {
  reply(res, 400, { code: -32000, message: 'Bad Request: no valid session ID provided' });
}

function internalError(res: ServerResponse): void {
  if (!res.headersSent) reply(res, 500, { code: -32603, message: 'Internal server error' });
}

function reply(res: ServerResponse, status: number, error: { code: number; message: string }): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error, id: null }));
}
