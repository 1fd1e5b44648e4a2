import 'reflect-metadata';

export { Tool, type ToolOptions, type ToolReturn, type OutputToolDecorator } from './decorators/tool.decorator';
export { Resource, type ResourceOptions, type CompletionSource } from './decorators/resource.decorator';
export { Prompt, type PromptOptions } from './decorators/prompt.decorator';
export { Field, type FieldOptions, type FieldFormat, type TitledValues } from './decorators/field.decorator';
export { Elicit } from './decorators/elicit.decorator';

export { PhantomServer } from './server/phantom-server';
export type { PhantomServerOptions } from './server/server-options';

export { Context, type ContextInit, type ElicitCallOptions, type InputCallOptions, type Logger, type Root } from './context/context';
export type { ClientChannel, ChannelRequestOptions } from './context/client-channel';
export type { ElicitResult } from './context/elicit-result';

export { Content } from './results/content';
export { ToolResult } from './results/tool-result';
export { ResourceContent, type ResourceContentOptions } from './results/resource-content';
export { userText, assistantText, promptMessage } from './results/prompt-result';

export { ProtocolError, ToolError, ResourceNotFoundError, ClientError, PhantomError, DefinitionError } from './core/errors';
export { ErrorCode } from './core/error-codes';
export { ServerClosingError } from './core/shutdown';
export { Method, Notification } from './core/methods';
export { STDERR_DIAGNOSTICS, SILENT_DIAGNOSTICS, type Diagnostics, type WarningRateLimit } from './core/diagnostics';
export type * from './core/wire.types';

export type { Outcome } from './router/router';
export type { ListKind } from './router/registry';

export type { MessageTransport } from './transport/message-transport';
export { StdioTransport, type StdioOptions } from './transport/stdio.transport';
export { InMemoryTransport } from './transport/in-memory.transport';
export type { StreamConnection } from './transport/stream-connection';
export { StreamableHttpHandler } from './transport/http/streamable-http.handler';
export type { HttpOptions, ListenOptions, Authenticate, AuthDecision, AuthRequest } from './transport/http/http-options';
export type { HttpListener } from './transport/http/http-listener';
export { InMemoryEventStore, type EventStore } from './transport/http/event-store';
export { InMemorySessionStore, type SessionStore } from './protocol/session/session-store';
export type { SessionState } from './protocol/session/session-state';
export { UrlElicitationRequiredError } from './context/url-elicitation-required.error';
export type { Visibility, VisibleItem } from './router/visibility';
export type { CacheHint } from './metadata/cache-hint';
export { registerSchemaConverter, type SchemaConverter, type ValidationRule, type JsonSchema } from './schema';
export type { FormElicitation, UrlElicitation, FormProperty, RequestedSchema } from './schema';
