import type { PromptInput } from './client-entry';

/** One server to put into a client's configuration: under `key`, by `name`, with the VS Code inputs it refers to. */
export interface ServerChange {
  /** The key (JSON) or table (TOML) holding the servers by name. */
  readonly key: string;
  readonly name: string;
  /** Strings, string arrays and string maps. */
  readonly entry: Readonly<Record<string, unknown>>;
  /** VS Code `inputs` (none for other clients). */
  readonly inputs: readonly PromptInput[];
}

/** A configuration file's new text, and whether it replaced an entry of that name (else added one). */
export interface Merged {
  readonly text: string;
  readonly replaced: boolean;
}
