import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema,
  type ClientCapabilities, type CreateMessageResult, type ElicitResult, type Implementation, type ListRootsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport, type PhantomServer } from '..';
import { answerTo, capabilitiesOf, type ClientAnswers } from './client-answers';
import { StatelessEraTransport } from './stateless-era.transport';

/** A service to replace in the server's container: the token (a class, a string or a symbol) and what to give instead. */
export type Override = readonly [token: Parameters<PhantomServer['override']>[0], value: unknown];

/** Options of `connect`. */
export interface ConnectOptions extends ClientAnswers {
  /** Client capabilities to declare, besides (and over) those the answers declare. */
  readonly capabilities?: ClientCapabilities;
  /** What the server's authentication hook would have attached (`ctx.principal`; an `AuthInfo` is also `ctx.auth`). Plain data. */
  readonly principal?: unknown;
  /**
   * Services to replace in the server's container, e.g. `[[WeatherApi, fakeApi]]`. The server must
   * not have served a request yet (its providers keep what they were built with): make a new
   * server per test. Not with the server's `resolve` option.
   */
  readonly overrides?: readonly Override[];
  /** The protocol era the client speaks: `session` (2025-11-25, the default) or `stateless` (2026-07-28). */
  readonly era?: 'session' | 'stateless';
  /** The client's name and version (default `{ name: 'phantom-mcp-testing', version: '1.0.0' }`). */
  readonly clientInfo?: Implementation;
  /** Stateless era: the `input_required` rounds answered per request before it fails (default 10). */
  readonly maxRounds?: number;
}

/** Stateless era: how many `input_required` rounds one request is answered before it fails, when `maxRounds` is not given. */
export const DEFAULT_MAX_ROUNDS = 10;
const TEST_CLIENT: Implementation = Object.freeze({ name: 'phantom-mcp-testing', version: '1.0.0' });

/**
 * Connects the official SDK `Client` to `server` in-process, over an in-memory pipe, and resolves
 * once it is ready: in the session era after the `initialize` handshake, in the stateless era at
 * once (each request then carries the revision's `_meta`, and `input_required` rounds are
 * answered with the same `elicit`, `sample` and `roots` answers, so the calls read the same in
 * both eras). `client.close()` ends the connection on both sides.
 *
 * @example
 * const client = await connect(server, { elicit: { action: 'accept', content: { city: 'Oslo' } } });
 * const result = await client.callTool({ name: 'book', arguments: {} });
 * expect(textOf(result)).to.equal('Booked Oslo');
 * await client.close();
 */
export async function connect(server: PhantomServer, options: ConnectOptions = {}): Promise<Client> {
  const era = options.era ?? 'session';
  if (era !== 'session' && era !== 'stateless') throw new TypeError(`phantom-mcp/testing connect: era must be 'session' or 'stateless', not ${String(era)}`);
  for (const [token, value] of options.overrides ?? []) server.override(token, value);
  const capabilities = capabilitiesOf(options, options.capabilities);
  const clientInfo = options.clientInfo ?? TEST_CLIENT;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await server.connect(serverSide, options.principal);
  } catch (error) {
    await clientSide.close();
    throw error;
  }
  const client = new Client(clientInfo, { capabilities });
  if (era === 'stateless') {
    const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    await client.connect(new StatelessEraTransport(clientSide, { clientInfo, capabilities, answers: options, maxRounds }));
  } else {
    answerServerRequests(client, options, capabilities);
    await client.connect(clientSide);
  }
  return client;
}

/** Session era: the server's requests reach the client's handlers, which give the test's answers. */
function answerServerRequests(client: Client, answers: ClientAnswers, capabilities: ClientCapabilities): void {
  if (capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => await answerTo(answers, request.method, request.params) as ElicitResult);
  }
  if (capabilities.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => await answerTo(answers, request.method, request.params) as CreateMessageResult);
  }
  if (capabilities.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async (request) => await answerTo(answers, request.method, request.params) as ListRootsResult);
  }
}
