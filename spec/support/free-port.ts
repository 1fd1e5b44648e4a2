import { createServer } from 'node:net';

/**
 * A loopback port free now, for what must know its port before it listens: an OAuth resource's
 * identifier (the tokens' audience), a redis-server, a replica behind the test's proxy.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
