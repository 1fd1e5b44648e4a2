import 'reflect-metadata';
import { PhantomServer, redis, STDERR_DIAGNOSTICS, type Diagnostics } from 'phantom-mcp';
import { AskerForm, AskingTools, toolProviders } from '../fixtures/phantom.fixtures';
import { argValue, runContender } from './bench-channel';
import { serveHttp } from './http-host';

/**
 * The server's own diagnostics, less one warning: a node that receives the client's answer to a
 * request another node sent warns that it matched no pending request, then passes it on over the
 * bus, where the asking node settles it. Every cross-node elicitation here does that, so the
 * warning (ten lines a minute, then a count) would only fill the bench's output.
 */
const CLUSTER_DIAGNOSTICS: Diagnostics = {
  ...STDERR_DIAGNOSTICS,
  warn: (message) => {
    if (!/response to no pending request|\(unmatched response;/.test(message)) STDERR_DIAGNOSTICS.warn(message);
  },
};

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
    diagnostics: CLUSTER_DIAGNOSTICS,
    ...(redisUrl === undefined ? {} : { store: redis(redisUrl, { keyPrefix: argValue('prefix') }) }),
  });
  // Fails here, with Redis's reason, rather than on the first request.
  await server.start();
  await serveHttp(server.httpHandler().handle, () => server.close());
});
