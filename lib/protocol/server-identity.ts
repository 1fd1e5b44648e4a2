import type { Implementation } from '../core/wire.types';

/** Who the server says it is, in `initialize` and `server/discover`. */
export interface ServerIdentity {
  readonly info: Implementation;
  /** Told to the client: how to use this server's tools well. */
  readonly instructions?: string;
}
