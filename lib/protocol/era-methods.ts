import type { EraMethod, MethodTable } from './method-table';
import type { SessionRequest } from './session-era/session-codec';
import type { StatelessRequest } from './stateless-era/stateless-codec';

/** What each era serves its requests with: its codec's request. */
export interface EraRequests {
  readonly session: SessionRequest;
  readonly stateless: StatelessRequest;
}

/** The server's one method table, over both eras' requests. */
export type ProtocolMethods = MethodTable<EraRequests>;

/** A method the session era serves itself. */
export type SessionEraMethod = EraMethod<EraRequests, 'session'>;

/** A method the stateless era serves itself. */
export type StatelessEraMethod = EraMethod<EraRequests, 'stateless'>;
