/** Media types by file extension (lowercase, without the dot): what a skill's files are served as. */
const BY_EXTENSION: Readonly<Record<string, string>> = Object.freeze({
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  text: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  xml: 'application/xml',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  rb: 'text/x-ruby',
  go: 'text/x-go',
  rs: 'text/x-rust',
  java: 'text/x-java',
  sql: 'application/sql',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  wasm: 'application/wasm',
});

/** Types outside `text/` whose content is text. */
const TEXT_TYPES: ReadonlySet<string> = new Set([
  'application/json', 'application/xml', 'application/yaml', 'application/toml', 'application/sql', 'image/svg+xml',
]);

const OCTETS = 'application/octet-stream';

/** The media type of a file by its name's extension; `application/octet-stream` when unknown. */
export function mimeTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? (BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? OCTETS) : OCTETS;
}

/**
 * The media type of a file by its extension, else by its content: a file of unknown extension
 * (`LICENSE`, `Makefile`) whose bytes are UTF-8 without NUL is `text/plain`, any other
 * `application/octet-stream`. Decided once, when the file is loaded, so listings and reads agree.
 */
export function mimeTypeFor(path: string, bytes: Uint8Array): string {
  const byName = mimeTypeOf(path);
  if (byName !== OCTETS) return byName;
  return !bytes.includes(0) && utf8Text(bytes) !== undefined ? 'text/plain' : OCTETS;
}

/** Whether content of this type is served as text (when its bytes are UTF-8) rather than as a blob. */
export function isTextType(mimeType: string): boolean {
  return mimeType.startsWith('text/') || TEXT_TYPES.has(mimeType);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `bytes` as text when they are valid UTF-8; `undefined` otherwise. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
