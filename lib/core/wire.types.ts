/**
 * The MCP message shapes the framework produces and consumes, typed once, after the official JSON
 * Schema of each protocol revision (schema/<revision>/schema.json in the specification repository).
 */
export type JsonObject = { [key: string]: unknown };
export type Meta = JsonObject;

export interface Icon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: 'light' | 'dark';
}

export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly icons?: readonly Icon[];
  readonly websiteUrl?: string;
}

export interface ClientCapabilities {
  readonly elicitation?: { readonly form?: JsonObject; readonly url?: JsonObject };
  readonly sampling?: JsonObject;
  readonly roots?: { readonly listChanged?: boolean };
  readonly experimental?: JsonObject;
  readonly [key: string]: unknown;
}

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface WireTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly Icon[];
  /** 2025-11-25: whether the tool runs as a task (`forbidden` when absent). */
  readonly execution?: { readonly taskSupport: 'optional' | 'required' };
  readonly _meta?: Meta;
}

export interface WireResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

export interface WireResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

export interface WirePromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

export interface WirePrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly WirePromptArgument[];
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

export interface TextResourceContents { uri: string; mimeType?: string; text: string; _meta?: Meta }
export interface BlobResourceContents { uri: string; mimeType?: string; blob: string; _meta?: Meta }
export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface TextContent { type: 'text'; text: string; annotations?: JsonObject; _meta?: Meta }
export interface ImageContent { type: 'image'; data: string; mimeType: string; annotations?: JsonObject; _meta?: Meta }
export interface AudioContent { type: 'audio'; data: string; mimeType: string; annotations?: JsonObject; _meta?: Meta }
export interface EmbeddedResource { type: 'resource'; resource: ResourceContents; annotations?: JsonObject; _meta?: Meta }
export interface ResourceLink extends WireResource { type: 'resource_link' }
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: Meta;
}

export interface ReadResourceResult { contents: ResourceContents[]; _meta?: Meta }

export type Role = 'user' | 'assistant';
export interface PromptMessage { role: Role; content: ContentBlock }
export interface GetPromptResult { description?: string; messages: PromptMessage[]; _meta?: Meta }

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
export const LOGGING_LEVELS: readonly LoggingLevel[] = Object.freeze([
  'debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency',
]);
