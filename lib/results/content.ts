import type {
  AudioContent, ContentBlock, EmbeddedResource, ImageContent, ResourceContents, ResourceLink, TextContent, WireResource,
} from '../core/wire.types';

/** Binary data as the wire wants it: base64 text. Strings are taken to be base64 already. */
export function toBase64(data: Uint8Array | ArrayBuffer | string): string {
  if (typeof data === 'string') return data;
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Content blocks shared by tool results and prompt messages.
 *
 * @example
 * return [Content.text('Here is the chart'), Content.image(png, 'image/png')];
 */
export const Content = Object.freeze({
  /** A text block. */
  text(text: string): TextContent {
    return { type: 'text', text };
  },
  /** An image block: bytes are sent as base64, a string is taken to be base64 already; `mimeType` defaults to `image/png`. */
  image(data: Uint8Array | ArrayBuffer | string, mimeType = 'image/png'): ImageContent {
    return { type: 'image', data: toBase64(data), mimeType };
  },
  /** An audio block: bytes are sent as base64, a string is taken to be base64 already; `mimeType` defaults to `audio/wav`. */
  audio(data: Uint8Array | ArrayBuffer | string, mimeType = 'audio/wav'): AudioContent {
    return { type: 'audio', data: toBase64(data), mimeType };
  },
  /** A resource's contents embedded in the message (see `ResourceContent` for building them). */
  resource(resource: ResourceContents): EmbeddedResource {
    return { type: 'resource', resource };
  },
  /** A pointer to a resource the client may read later. */
  resourceLink(link: WireResource): ResourceLink {
    return { type: 'resource_link', ...link };
  },
});

const CONTENT_TYPES: ReadonlySet<string> = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

export function isContentBlock(value: unknown): value is ContentBlock {
  return typeof value === 'object' && value !== null && CONTENT_TYPES.has((value as { type?: unknown }).type as string);
}
