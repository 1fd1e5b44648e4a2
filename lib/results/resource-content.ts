import type { BlobResourceContents, JsonObject, Meta, ReadResourceResult, ResourceContents, TextResourceContents } from '../core/wire.types';
import { shallowCopy } from '../core/shallow-copy';
import { toBase64 } from './content';

/** Optional fields of resource contents; `uri` and `mimeType` default from the request and template. */
export interface ResourceContentOptions {
  readonly uri?: string;
  readonly mimeType?: string;
  readonly _meta?: Meta;
}

/** Text contents not yet tied to a URI: what a handler hands back before the router fills defaults. */
export type PartialText = Omit<TextResourceContents, 'uri'> & { uri?: string };
/** Binary (base64) contents not yet tied to a URI; the router fills `uri` and `mimeType` as for {@link PartialText}. */
export type PartialBlob = Omit<BlobResourceContents, 'uri'> & { uri?: string };
export type PartialContents = PartialText | PartialBlob;

/**
 * Helpers for what a resource handler returns. `uri` defaults to the URI being read and `mimeType`
 * to the one declared on `@Resource`; a handler may also return a string, an object (JSON), a
 * `Uint8Array`, one contents object or an array of them. Returning `undefined` or `null` (or
 * throwing `ResourceNotFoundError`) says the URI is not served: the client gets "resource not found".
 *
 * @example
 * return ResourceContent.text('# Notes', { mimeType: 'text/markdown' });
 * return ResourceContent.blob(pngBytes, { mimeType: 'image/png' });
 */
export const ResourceContent = Object.freeze({
  /** Text; an object becomes its JSON with `application/json` unless told otherwise. */
  text(text: string | JsonObject, options: ResourceContentOptions = {}): PartialText {
    if (typeof text === 'string') return { ...options, text };
    return { mimeType: 'application/json', ...options, text: JSON.stringify(text) };
  },
  /** Binary, sent as base64; `application/octet-stream` unless the template or options say. */
  blob(data: Uint8Array | ArrayBuffer | string, options: ResourceContentOptions = {}): PartialBlob {
    return { ...options, blob: toBase64(data) };
  },
});

/** The request being answered: fills what the handler left out. */
export interface ReadScope {
  readonly uri: string;
  readonly mimeType?: string;
}

function complete(partial: PartialContents, scope: ReadScope): ResourceContents {
  const contents = shallowCopy(partial) as ResourceContents & { uri?: string; mimeType?: string };
  contents.uri = partial.uri ?? scope.uri;
  contents.mimeType = partial.mimeType ?? scope.mimeType ?? ('blob' in partial ? 'application/octet-stream' : 'text/plain');
  return withoutUndefined(contents);
}

function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

function isContents(value: object): value is PartialContents {
  return typeof (value as { text?: unknown }).text === 'string' || typeof (value as { blob?: unknown }).blob === 'string';
}

/** A JSON media type: `application/json`, or one with the `+json` suffix (RFC 6839), such as `application/geo+json`. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json(?:\s*;.*)?$/i;

function toPartial(value: unknown, scope: ReadScope): PartialContents {
  if (typeof value === 'string') return ResourceContent.text(value);
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return ResourceContent.blob(value);
  if (typeof value === 'object' && value !== null && isContents(value)) return value;
  // An object is sent as JSON: under the declared type when that is a JSON type (what the listing
  // advertised), else as application/json (JSON is not the declared text/markdown).
  if (typeof value === 'object' && value !== null) {
    return ResourceContent.text(value as JsonObject, scope.mimeType !== undefined && JSON_MEDIA_TYPE.test(scope.mimeType) ? { mimeType: scope.mimeType } : {});
  }
  return ResourceContent.text(String(value));
}

/** Turns whatever a resource handler returned into a `ReadResourceResult`. */
export function normaliseResourceResult(value: unknown, scope: ReadScope): ReadResourceResult {
  if (typeof value === 'object' && value !== null && Array.isArray((value as ReadResourceResult).contents)) {
    const result = shallowCopy(value as ReadResourceResult) as { contents: ResourceContents[] };
    result.contents = (value as ReadResourceResult).contents.map((c) => complete(c, scope));
    return result as ReadResourceResult;
  }
  const items = Array.isArray(value) ? value : [value];
  return { contents: items.map((item) => complete(toPartial(item, scope), scope)) };
}
