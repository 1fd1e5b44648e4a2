import 'reflect-metadata';
import { PhantomServer, type HttpOptions } from 'phantom-mcp';
import { oauthResourceServer } from 'phantom-mcp/oauth';
import { templateProviders, toolProviders } from '../fixtures/phantom.fixtures';
import { argNumber, argValue, PLAIN_PATH, runContender } from './bench-channel';
import { serveHttp } from './http-host';

/**
 * phantom-mcp over Streamable HTTP, its handler mounted as the README shows. One endpoint serves
 * both eras: the bench runs one process per era so that each contender has its own. With
 * `--issuer`, every request must carry a bearer token of that issuer, verified by
 * `oauthResourceServer` (keys from `--jwks-uri`, fetched once; verified tokens cached until expiry);
 * with `--pair` as well, `/plain` serves the same server without a token.
 */
runContender(async () => {
  const server = new PhantomServer({
    name: 'bench',
    version: '1.0.0',
    providers: [...toolProviders(argNumber('tools', 1)), ...templateProviders(argNumber('templates', 0))],
    pageSize: argNumber('page-size', 100),
    // The memory suite opens more sessions than the default cap, as the SDK (uncapped) is asked to.
    maxSessions: 1_000_000,
  });
  const handle = server.httpHandler(httpOptions()).handle;
  if (!process.argv.includes('--pair')) return serveHttp(handle, () => server.close());
  // With --pair, the same server also answers without a token under /plain: the bench measures
  // the token's cost in one process, free of the differences between two processes' JITs and heaps.
  const plain = server.httpHandler().handle;
  await serveHttp((req, res) => (req.url?.startsWith(PLAIN_PATH) ? plain : handle)(req, res), () => server.close());
});

function httpOptions(): HttpOptions {
  if (!process.argv.includes('--issuer')) return {};
  return { auth: oauthResourceServer({ issuer: argValue('issuer'), audience: argValue('audience'), jwksUri: argValue('jwks-uri') }) };
}
