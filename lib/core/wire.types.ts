/**
 * The MCP message shapes the framework produces and consumes, typed once, after the official JSON
 * Schema of each protocol revision (schema/<revision>/schema.json in the specification repository).
 */
/** Any JSON object: the shape of a JSON Schema, of structured content, of an opaque capability. */
export type JsonObject = { [key: string]: unknown };
/**
 * The `_meta` object a message may carry. Keys are namespaced by the protocol (`io.modelcontextprotocol/...`,
 * `progressToken`); keys the framework does not know are passed through untouched.
 */
export type Meta = JsonObject;

/** An icon a client may show for the server, a tool, a resource or a prompt (revision 2025-11-25 and later). */
export interface Icon {
  /** An HTTP(S) URL or a `data:` URI of the image. */
  readonly src: string;
  /** The image's MIME type, when the URL does not say it (`image/png`, `image/svg+xml`). */
  readonly mimeType?: string;
  /** Sizes the image fits, as `WxH` strings (`48x48`) or `any` for scalable images. */
  readonly sizes?: readonly string[];
  /** The UI theme the icon is drawn for; absent means any. */
  readonly theme?: 'light' | 'dark';
}

/** The name and version of an MCP client or server, as exchanged in `initialize` (`clientInfo`, `serverInfo`). */
export interface Implementation {
  /** Programmatic name, stable across versions. */
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly icons?: readonly Icon[];
  readonly websiteUrl?: string;
  /** What the implementation does, in a sentence (2025-11-25 and later). */
  readonly description?: string;
}

/**
 * What a client declared it supports: in `initialize` (session era) or in each request's `_meta`
 * (stateless era). A feature absent here must not be used towards that client.
 */
export interface ClientCapabilities {
  readonly elicitation?: { readonly form?: JsonObject; readonly url?: JsonObject };
  readonly sampling?: JsonObject;
  readonly roots?: { readonly listChanged?: boolean };
  readonly experimental?: JsonObject;
  readonly [key: string]: unknown;
}

/**
 * Hints about a tool's behaviour, for the client's UI and consent decisions. They are claims of the
 * server, not guarantees: a client must not trust them from a server it does not trust.
 */
export interface ToolAnnotations {
  readonly title?: string;
  /** The tool changes nothing in its environment (protocol default: false). */
  readonly readOnlyHint?: boolean;
  /** When not read-only, the tool may destroy or overwrite data (protocol default: true). */
  readonly destructiveHint?: boolean;
  /** When not read-only, calling it again with the same arguments has no further effect (protocol default: false). */
  readonly idempotentHint?: boolean;
  /** The tool reaches an open world (the web, other systems) rather than a closed domain (protocol default: true). */
  readonly openWorldHint?: boolean;
}

/** A tool as `tools/list` returns it. */
export interface WireTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** JSON Schema (an object schema) of the call's `arguments`. */
  readonly inputSchema: JsonObject;
  /** JSON Schema of `structuredContent`, when the tool declares one: its results must then conform. */
  readonly outputSchema?: JsonObject;
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly Icon[];
  /** 2025-11-25: whether the tool runs as a task (`forbidden` when absent). */
  readonly execution?: { readonly taskSupport: 'optional' | 'required' };
  readonly _meta?: Meta;
}

/** A concrete resource as `resources/list` returns it (and the target of a {@link ResourceLink}). */
export interface WireResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Size of the raw content in bytes (before any base64 encoding), when known. */
  readonly size?: number;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

/** A resource template as `resources/templates/list` returns it. */
export interface WireResourceTemplate {
  /** An RFC 6570 URI template; a client fills its variables and reads the resulting URI. */
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

/** One argument of a {@link WirePrompt}; every argument value is a string. */
export interface WirePromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** A prompt as `prompts/list` returns it. */
export interface WirePrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly WirePromptArgument[];
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

/** The contents of a resource as text, in a `resources/read` result or an embedded resource. */
export interface TextResourceContents { uri: string; mimeType?: string; text: string; _meta?: Meta }
/** The contents of a resource as binary data; `blob` is base64. */
export interface BlobResourceContents { uri: string; mimeType?: string; blob: string; _meta?: Meta }
/** The contents of one resource: text or base64 binary. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** A text block of a tool result or prompt message. */
export interface TextContent { type: 'text'; text: string; annotations?: JsonObject; _meta?: Meta }
/** An image block; `data` is base64, `mimeType` its type (`image/png`). */
export interface ImageContent { type: 'image'; data: string; mimeType: string; annotations?: JsonObject; _meta?: Meta }
/** An audio block; `data` is base64, `mimeType` its type (`audio/wav`). */
export interface AudioContent { type: 'audio'; data: string; mimeType: string; annotations?: JsonObject; _meta?: Meta }
/** A block carrying a resource's contents inline. */
export interface EmbeddedResource { type: 'resource'; resource: ResourceContents; annotations?: JsonObject; _meta?: Meta }
/** A block pointing to a resource by URI, which the client may read later with `resources/read`. */
export interface ResourceLink extends WireResource { type: 'resource_link' }
/** One block of content in a tool result or a prompt message. */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

/** The result of `tools/call`. */
export interface CallToolResult {
  content: ContentBlock[];
  /** The result as a JSON object, conforming to the tool's `outputSchema` when it has one. */
  structuredContent?: JsonObject;
  /** True when the tool failed: the content then tells the model what went wrong (a protocol error is not this). */
  isError?: boolean;
  _meta?: Meta;
}

/** The result of `resources/read`: the contents of the resource read (a handler may return several parts). */
export interface ReadResourceResult { contents: ResourceContents[]; _meta?: Meta }

/** Who speaks a prompt message. */
export type Role = 'user' | 'assistant';
/** One message of a prompt. */
export interface PromptMessage { role: Role; content: ContentBlock }
/** The result of `prompts/get`. */
export interface GetPromptResult { description?: string; messages: PromptMessage[]; _meta?: Meta }

/** The syslog severities (RFC 5424) MCP log messages carry, least severe first. */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
/** Every {@link LoggingLevel}, least severe first: a level's index orders it against a threshold. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = Object.freeze([
  'debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency',
]);
