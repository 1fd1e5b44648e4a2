import 'reflect-metadata';
import { oauthResourceServer, PhantomServer, type HttpOptions } from 'phantom-mcp';
import { templateProviders, toolProviders } from '../fixtures/phantom.fixtures';
import { argNumber, argValue, runContender } from './bench-channel';
import { serveHttp } from './http-host';

/**
 * phantom-mcp over Streamable HTTP, its handler mounted as the README shows. One endpoint serves
 * both eras: the bench runs one process per era so that each contender has its own. With
 * `--issuer`, every request must carry a bearer token of that issuer, verified by
 * `oauthResourceServer` (keys from `--jwks-uri`, fetched once; verified tokens cached until expiry).
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
  await serveHttp(server.httpHandler(httpOptions()).handle, () => server.close());
});

function httpOptions(): HttpOptions {
  if (!process.argv.includes('--issuer')) return {};
  return { auth: oauthResourceServer({ issuer: argValue('issuer'), audience: argValue('audience'), jwksUri: argValue('jwks-uri') }) };
}
