import { createInterface } from 'node:readline';
import { runContender, serveBench } from './bench-channel';

/** The stdio ceiling: read a JSON-RPC line, write the echo result as a line. No protocol at all. */
runContender(async () => {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    const message = JSON.parse(line) as { id?: number | string; params?: { arguments?: { text?: unknown } } };
    if (message.id === undefined) return;
    const result = { content: [{ type: 'text', text: String(message.params?.arguments?.text) }] };
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`);
  });
  serveBench({});
});
