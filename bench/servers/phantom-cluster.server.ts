import 'reflect-metadata';
import { PhantomServer } from 'phantom-mcp';
import { redis } from 'phantom-mcp/redis';
import { AskerForm, AskingTools, toolProviders } from '../fixtures/phantom.fixtures';
import { argValue, runContender } from './bench-channel';
import { serveHttp } from './http-host';

/**
 * One node of the cluster suite: the session era's echo tool and a tool that elicits, mounted as
 * `phantom.server` mounts its handler. With `--redis-url` (and `--prefix`), its sessions, event
 * logs and bus are in that Redis (`store: redis(...)`), shared with the other nodes of the same
 * prefix; without, the in-memory default.
 */
runContender(async () => {
  const redisUrl = process.argv.includes('--redis-url') ? argValue('redis-url') : undefined;
  const server = new PhantomServer({
    name: 'bench-cluster',
    version: '1.0.0',
    providers: [...toolProviders(1), AskingTools],
    forms: [AskerForm],
    ...(redisUrl === undefined ? {} : { store: redis(redisUrl, { keyPrefix: argValue('prefix') }) }),
  });
  // Fails here, with Redis's reason, rather than on the first request.
  await server.start();
  await serveHttp(server.httpHandler().handle, () => server.close());
});
