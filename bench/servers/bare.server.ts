import { runContender } from './bench-channel';
import { readBody, serveHttp } from './http-host';

/**
 * The ceiling: `node:http` parsing a JSON-RPC body and writing the echo result, with no protocol,
 * no session and no validation. Whatever an MCP server adds is measured against this.
 */
runContender(() => serveHttp(async (req, res) => {
  const message = JSON.parse(await readBody(req)) as { id: number | string; params?: { arguments?: { text?: unknown } } };
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: message.id,
    result: { content: [{ type: 'text', text: String(message.params?.arguments?.text) }] },
  });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}));
