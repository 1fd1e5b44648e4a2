import 'reflect-metadata';

// The root entry holds what a server author writes in a server module: the decorators, the server
// and its options, the context and what a handler returns or throws, guards and interceptors.
// Features are behind subpath entries (lib/entries: phantom-mcp/http, /redis, /oauth, /otel,
// /seams, /extensions, /protocol; lib/testing: phantom-mcp/testing); each name lives in one entry.

export { Tool, type ToolOptions, type ToolReturn, type OutputToolDecorator } from './decorators/tool.decorator';
export { Resource, type ResourceOptions, type CompletionSource } from './decorators/resource.decorator';
export { Prompt, type PromptOptions } from './decorators/prompt.decorator';
export { Field, type FieldOptions, type FieldFormat, type TitledValues } from './decorators/field.decorator';
export { Elicit } from './decorators/elicit.decorator';
export { Skill, type SkillOptions, type SkillContent } from './decorators/skill.decorator';
export { ToolUi, type ToolUiOptions, type ToolUiCsp, type ToolUiPermissions, type ToolUiAudience } from './decorators/tool-ui.decorator';
export { UseGuards } from './decorators/use-guards.decorator';
export { UseInterceptors } from './decorators/use-interceptors.decorator';
export { RequireScopes } from './decorators/require-scopes.decorator';

export { PhantomServer } from './server/phantom-server';
export type { EnvironmentVariable, PhantomServerOptions } from './server/server-options';
export type { HttpOptions, ListenOptions } from './transport/http/http-options';
export type { Visibility, VisibleItem, ItemScopes } from './router/visibility';
export { scopesVisibility } from './router/visibility';
export type { ListKind, ListChangeListener } from './router/registry';
export type { Outcome } from './router/router';
export { STDERR_DIAGNOSTICS, SILENT_DIAGNOSTICS, DIAGNOSTICS, type Diagnostics, type WarningRateLimit } from './core/diagnostics';
export { isProviderClass } from './metadata/metadata-store';

export type { MessageTransport } from './transport/pipe/message-transport';
export { StdioTransport, type StdioOptions } from './transport/pipe/stdio.transport';
export { InMemoryTransport } from './transport/pipe/in-memory.transport';
export type { StreamConnection } from './transport/pipe/stream-connection';

export { Context, type ContextInit, type ElicitCallOptions, type InputCallOptions, type Logger, type Root, type ProtocolEra, type LogFn } from './context/context';
export { ContextKey } from './context/context-key';
export type { ClientChannel, ChannelRequestOptions } from './context/client-channel';
export type { ElicitResult } from './context/elicit-result';
export { isAuthInfo, principalIdentity, type AuthInfo } from './core/auth-info';

export { Content } from './results/content';
export { ToolResult } from './results/tool-result';
export { ResourceContent, type ResourceContentOptions, type PartialBlob, type PartialText } from './results/resource-content';
export { userText, assistantText, promptMessage } from './results/prompt-result';

export {
  ProtocolError, ToolError, ResourceNotFoundError, ClientError, PhantomError, DefinitionError, ForbiddenError, HiddenError, InsufficientScopeError,
  StoreUnavailableError, CallEndedSignal,
} from './core/errors';
export { ErrorCode } from './core/error-codes';
export { ServerClosingError } from './core/shutdown';
export { UrlElicitationRequiredError } from './context/url-elicitation-required.error';

export type { ExecutionContext, OperationKind } from './router/pipeline/execution-context';
export type { CanActivate } from './router/pipeline/guard';
export type { Interceptor, CallHandler } from './router/pipeline/interceptor';
export type { PipelineMember } from './router/pipeline/pipeline-members';
export { RateLimitGuard, type RateLimitOptions } from './router/pipeline/built-ins/rate-limit.guard';
export { RequestLoggingInterceptor, type RequestLogEntry, type RequestLogSink } from './router/pipeline/built-ins/request-logging.interceptor';
export { ScopeGuard } from './router/pipeline/built-ins/scope.guard';

export { registerSchemaConverter, type SchemaConverter, type ValidationRule, type JsonSchema } from './schema';
export type {
  FormElicitation, UrlElicitation, FormProperty, RequestedSchema, BooleanProperty, EnumChoice, EnumProperty, FormSpec, FormStringFormat, NumberProperty, StringProperty, UrlSpec,
} from './schema';

export { apps } from './extensions/apps/apps.extension';
export type { AppsOptions } from './extensions/apps/apps-options';
export { skills } from './extensions/skills/skills.extension';
export type { SkillsOptions } from './extensions/skills/skills-options';

// The MCP wire types a handler names: what it returns, and what its context tells it.
export type {
  JsonObject, Meta, Icon, Implementation, ClientCapabilities, LoggingLevel, Role,
  CallToolResult, ContentBlock, TextContent, ImageContent, AudioContent, EmbeddedResource, ResourceLink,
  ReadResourceResult, ResourceContents, TextResourceContents, BlobResourceContents, GetPromptResult, PromptMessage,
} from './core/wire.types';

// Types the public API's signatures name, exported so that users can name them too (and the API docs link them).
export type { Constructor } from './metadata/metadata-store';
export type { MemberDecorator } from './decorators/member-decorator';
export type { ClassOrMethodDecorator } from './decorators/pipeline-member.decorator';
export type { ElicitOptions } from './metadata/elicit-options';
export type { GuardShape, InterceptorShape, PipelineMemberRef } from './metadata/pipeline-options';
export type { Resolve } from './server/resolved-instance-source';
export type { TaskOptions } from './protocol/tasks/task-options';
export type { CacheHint } from './metadata/cache-hint';
