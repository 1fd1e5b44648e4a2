import type { Merged, ServerChange } from './config-change';
import { jsonSnippet, mergeJson } from './json-config';
import { mergeToml, tomlSnippet } from './toml-config';

/** How one file format takes a server: merged into a file's text, or printed to merge by hand. */
export interface ConfigFormat {
  /** The file's text (`undefined`: no file yet) with the server added or replaced; a `CommandError` when it cannot be done safely. */
  merge(text: string | undefined, file: string, change: ServerChange): Merged;
  /** The server alone, as `config` prints it. */
  snippet(change: ServerChange): string;
}

/** Each client's file format. */
export const FORMATS: Readonly<Record<'json' | 'toml', ConfigFormat>> = {
  json: { merge: mergeJson, snippet: jsonSnippet },
  toml: { merge: mergeToml, snippet: tomlSnippet },
};
