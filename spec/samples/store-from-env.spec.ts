import 'reflect-metadata';
import { expect } from 'chai';
import { SILENT_DIAGNOSTICS, type PhantomServer } from '../../lib';
import { uniqueId } from '../../lib/core/unique-id';
import * as hello from '../../samples/01-hello-tool/main';
import * as resources from '../../samples/02-resources/main';
import * as prompts from '../../samples/03-prompts/main';
import * as elicitation from '../../samples/04-elicitation/main';
import * as di from '../../samples/05-dependency-injection/main';
import * as pipeline from '../../samples/06-pipeline/main';
import * as oauth from '../../samples/07-oauth/main';
import * as nest from '../../samples/08-nestjs/main';
import * as conformance from '../../samples/conformance/main';
import * as showcase from '../../samples/showcase/main';
import { openSession, post } from '../integration/support/raw-http';
import { requireRedis, sharedRedis } from '../support/redis.fixture';

/** One running copy of a sample, as its own `main` builds it. */
interface Copy {
  readonly url: string;
  close(): Promise<void>;
}

async function listening(server: PhantomServer): Promise<Copy> {
  const listener = await server.listen({ port: 0 });
  return { url: listener.url, close: () => server.close() };
}

/** How each sample makes a copy of itself: every one reads the environment when it is built. */
const SAMPLES: Record<string, () => Promise<Copy>> = {
  '01-hello-tool': () => listening(hello.createServer()),
  '02-resources': () => listening(resources.createServer()),
  '03-prompts': () => listening(prompts.createServer()),
  '04-elicitation': () => listening(elicitation.createServer()),
  '05-dependency-injection': () => listening(di.createServer()),
  '06-pipeline': () => listening(pipeline.createServer(SILENT_DIAGNOSTICS)),
  '07-oauth': () => listening(oauth.createServer()),
  '08-nestjs': async () => {
    const app = await nest.createApp();
    await app.listen(0, '127.0.0.1');
    return { url: `${await app.getUrl()}/mcp`, close: () => app.close() };
  },
  conformance: () => listening(conformance.createServer()),
  showcase: () => listening(showcase.createServer()),
};

/** Sets these variables (undefined deletes one) for the specs of the enclosing block, then puts back what was there. */
function environment(vars: () => Promise<Record<string, string | undefined>>): void {
  const before: Record<string, string | undefined> = {};
  beforeEach(async () => {
    for (const [name, value] of Object.entries(await vars())) {
      before[name] = process.env[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

/** What another copy answers to a ping in the session `first` began. */
async function pingOnAnother(make: () => Promise<Copy>, first: Copy, session: string): Promise<number> {
  const second = await make();
  try {
    return (await post(second.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' })).status;
  } finally {
    await second.close();
  }
}

describe('samples/store-from-env', () => {
  describe('#storeFromEnv', () => {
    context('when REDIS_URL is set', () => {
      requireRedis();
      environment(async () => ({ REDIS_URL: (await sharedRedis()).url, REDIS_PREFIX: `samples-${uniqueId()}:` }));

      for (const [name, make] of Object.entries(SAMPLES)) {
        it(`lets two copies of ${name} serve one session, kept in that Redis`, async () => {
          const first = await make();
          try {
            const session = await openSession(first.url);
            expect(await pingOnAnother(make, first, session)).to.equal(200);
          } finally {
            await first.close();
          }
        });
      }

      it('keeps the sessions under REDIS_PREFIX: a copy with another prefix does not know them', async () => {
        const first = await SAMPLES['01-hello-tool']();
        try {
          const session = await openSession(first.url);
          process.env.REDIS_PREFIX = `samples-other-${uniqueId()}:`;
          expect(await pingOnAnother(SAMPLES['01-hello-tool'], first, session)).to.equal(404);
        } finally {
          await first.close();
        }
      });
    });

    context('when REDIS_URL is not set', () => {
      environment(async () => ({ REDIS_URL: undefined, REDIS_PREFIX: undefined }));

      it('keeps each copy\'s sessions in its own memory, as before', async () => {
        const first = await SAMPLES['01-hello-tool']();
        try {
          const session = await openSession(first.url);
          expect(await pingOnAnother(SAMPLES['01-hello-tool'], first, session)).to.equal(404);
        } finally {
          await first.close();
        }
      });
    });
  });
});
