import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { sdk2Server } from '../fixtures/sdk2.fixtures';
import type { Registry } from '../fixtures/sdk.fixtures';
import { argNumber, runContender } from './bench-channel';
import { serveHttp } from './http-host';

/**
 * The official SDK's 2.x line: `createMcpHandler` over a per-request server factory, wrapped once
 * with `toNodeHandler` and mounted on plain `node:http` behind the localhost `Host` and `Origin`
 * guards, as the SDK documents for a hand-wired Node server. One endpoint serves both eras: a
 * 2026-07-28 request on the modern path, a 2025-11-25 one through the default stateless fallback.
 */
runContender(async () => {
  const registry: Registry = { tools: argNumber('tools', 1), templates: argNumber('templates', 0) };
  const handler = createMcpHandler(() => sdk2Server(registry));
  const serve = toNodeHandler(handler);
  const validHost = localhostHostValidation();
  const validOrigin = localhostOriginValidation();
  await serveHttp(async (req, res) => {
    // The guards answer a rejected request with 403 themselves.
    if (!validHost(req, res) || !validOrigin(req, res)) return;
    await serve(req, res);
  }, () => handler.close());
});
