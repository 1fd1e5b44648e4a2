import 'reflect-metadata';

export { Tool, type ToolOptions, type ToolReturn, type OutputToolDecorator } from './decorators/tool.decorator';
export { Resource, type ResourceOptions, type CompletionSource } from './decorators/resource.decorator';
export { Prompt, type PromptOptions } from './decorators/prompt.decorator';
export { Field, type FieldOptions, type FieldFormat, type TitledValues } from './decorators/field.decorator';
export { Elicit } from './decorators/elicit.decorator';
export { Skill, type SkillOptions, type SkillContent } from './decorators/skill.decorator';
export { ToolUi, type ToolUiOptions, type ToolUiCsp, type ToolUiPermissions, type ToolUiAudience } from './decorators/tool-ui.decorator';
export { UseGuards } from './decorators/use-guards.decorator';
export { UseInterceptors } from './decorators/use-interceptors.decorator';

export { PhantomServer } from './server/phantom-server';
export type { EnvironmentVariable, PhantomServerOptions } from './server/server-options';

export { Context, type ContextInit, type ElicitCallOptions, type InputCallOptions, type Logger, type Root } from './context/context';
export type { ElicitationFallback, FallbackElicitation } from './context/elicitation-fallback';
export { ContextKey } from './context/context-key';
export type { ClientChannel, ChannelRequestOptions } from './context/client-channel';
export type { TaskSide, TaskStarter } from './context/task-starter';
export type { ElicitResult } from './context/elicit-result';

export { Content } from './results/content';
export { ToolResult } from './results/tool-result';
export { ResourceContent, type ResourceContentOptions } from './results/resource-content';
export { userText, assistantText, promptMessage } from './results/prompt-result';

export { ProtocolError, ToolError, ResourceNotFoundError, ClientError, PhantomError, DefinitionError, ForbiddenError, HiddenError, StoreUnavailableError, CallEndedSignal } from './core/errors';
export { ErrorCode } from './core/error-codes';
export { ServerClosingError } from './core/shutdown';
export { Method, Notification } from './core/methods';
export { STDERR_DIAGNOSTICS, SILENT_DIAGNOSTICS, DIAGNOSTICS, type Diagnostics, type WarningRateLimit } from './core/diagnostics';
export type * from './core/wire.types';

export type { Outcome } from './router/router';
export type { ListKind } from './router/registry';
export type { ExecutionContext, OperationKind } from './router/pipeline/execution-context';
export type { CanActivate } from './router/pipeline/guard';
export type { Interceptor, CallHandler } from './router/pipeline/interceptor';
export type { PipelineMember } from './router/pipeline/pipeline-members';
export { RateLimitGuard, type RateLimitOptions } from './router/pipeline/built-ins/rate-limit.guard';
export { RequestLoggingInterceptor, type RequestLogEntry, type RequestLogSink } from './router/pipeline/built-ins/request-logging.interceptor';

export type { MessageTransport } from './transport/pipe/message-transport';
export { StdioTransport, type StdioOptions } from './transport/pipe/stdio.transport';
export { InMemoryTransport } from './transport/pipe/in-memory.transport';
export type { StreamConnection } from './transport/pipe/stream-connection';
export { StreamableHttpHandler } from './transport/http/streamable-http.handler';
export type { HttpOptions, ListenOptions } from './transport/http/http-options';
export {
  SERVER_CARD_SCHEMA, SERVER_CARD_MEDIA_TYPE, isRegistryName,
  type ServerCard, type ServerCardOptions, type ServerCardHeader, type ServerCardRemote,
} from './transport/http/server-card';
export { DEFAULT_CARD_MAX_AGE_SEC } from './transport/http/server-card.endpoint';
export type { Authenticate, AuthDecision, AuthRequest } from './core/auth-decision';
export { requestDeadlines, type HttpListener } from './transport/http/http-listener';
export { hostAllowed } from './transport/http/request-guards';
export { expressJsonErrors } from './transport/http/hosts/express-json-errors';
export { fastifyJsonErrors } from './transport/http/hosts/fastify-json-errors';
export type {
  ExpressErrorMiddleware, ExpressNext, FastifyErrorHandler, FastifyReplyLike, FastifyRequestLike,
} from './transport/http/hosts/host-shapes.types';
export type { FetchHandler } from './transport/fetch/fetch-handler';
export {
  InMemoryEventStore, type EventStore, type InMemoryEventStoreOptions, type StoredEvent, type StreamFollower, type StreamRef,
} from './protocol/seams/event-store';
export { InMemorySessionStore, type InMemorySessionStoreOptions, type SessionChange, type SessionStore } from './protocol/seams/session-store';
export type { BusSettings, SessionStoreSettings, SharedStores } from './protocol/seams/shared-stores';
export { InProcessSessionBus, type BusSubscription, type ServerMessage, type SessionBus, type SessionMessage } from './protocol/seams/session-bus';
export type { SessionState } from './protocol/seams/session-state';
export { RedisSessionStore, DEFAULT_MAX_UPDATE_ATTEMPTS, type RedisSessionStoreOptions } from './cluster/redis-session-store';
export { RedisEventStore, DEFAULT_EVENT_TTL_MS, DEFAULT_FOLLOWER_CHECK_MS, type RedisEventStoreOptions } from './cluster/redis-event-store';
export { RedisSessionBus, DEFAULT_BUS_MAX_MESSAGE_BYTES, type RedisSessionBusOptions } from './cluster/redis-session-bus';
export { redis, type RedisOptions } from './cluster/redis';
export { DEFAULT_KEY_PREFIX, type RedisSettings } from './cluster/redis-connections';
export { UrlElicitationRequiredError } from './context/url-elicitation-required.error';
export type { Visibility, VisibleItem } from './router/visibility';
export type {
  Extension, ExtensionMethod, ExtensionHost, ExtensionListenFilter, ExtensionBackgroundCalls, BackgroundCall, CallOutcome, ToolCallInfo, ExtensionResource, ExtensionTool,
  FixedExtensionResource, TemplateExtensionResource, TemplateVariables, Negotiation,
  ElicitationFallbackCall, ExtensionServedTool, ExtensionCallOptions, ExtensionTokens, TokenOpening,
} from './router/extensions/extension';
export { declaresExtension, extensionNotDeclared } from './router/extensions/extension-set';
export type { CacheHint } from './metadata/cache-hint';
export {
  apps, AppsExtension, APPS_EXTENSION_ID, APP_MIME_TYPE, ELICITATION_META_KEY, FORM_SUBMIT_TOOL, FORM_VIEW_URI,
} from './extensions/apps/apps.extension';
export { DEFAULT_FORM_TTL_MS, DEFAULT_MAX_FORMS_PER_CALL, type AppsOptions } from './extensions/apps/apps-options';
export { skills, SkillsExtension, SKILLS_EXTENSION_ID, type SkillDefinition, type SkillChanges } from './extensions/skills/skills.extension';
export {
  DEFAULT_MAX_FILES_PER_SKILL, DEFAULT_MAX_SKILL_BYTES, DEFAULT_SKILLS_CACHE, DEFAULT_SKILLS_PAGE_SIZE, type SkillsOptions,
} from './extensions/skills/skills-options';
export { registerSchemaConverter, type SchemaConverter, type ValidationRule, type JsonSchema } from './schema';
export type { FormElicitation, UrlElicitation, FormProperty, RequestedSchema } from './schema';
export { TelemetryInterceptor, type TelemetryOptions, type TracerProviderLike, type MeterProviderLike } from './router/pipeline/built-ins/telemetry.interceptor';
export type { ProtocolEra } from './context/context';
export type { HealthOptions, ReadinessCheck } from './transport/http/http-options';

export { oauthResourceServer, type OAuthResourceServer, type ResourceChallenges } from './auth/oauth-resource-server';
export { DEFAULT_ALGORITHMS, RESOURCE_SERVER_DEFAULTS, type OAuthResourceServerOptions } from './auth/resource-server-options';
export type { IntrospectionOptions } from './auth/token-introspector';
export { bearerChallenge, type BearerChallenge } from './auth/bearer-challenge';
export { protectedResourceMetadata, protectedResourceMetadataUrl, type ProtectedResourceMetadata, type ProtectedResourceMetadataInit } from './auth/protected-resource-metadata';
export { TokenRejectedError, AuthorizationServerUnavailableError } from './auth/token-errors';
export { scopesFromClaims, type ScopesOf } from './auth/auth-info.mapper';
export { isAuthInfo, principalIdentity, type AuthInfo } from './core/auth-info';
export { InsufficientScopeError } from './core/errors';
export { RequireScopes } from './decorators/require-scopes.decorator';
export { ScopeGuard } from './router/pipeline/built-ins/scope.guard';
export { scopesVisibility } from './router/visibility';
export type { StoredStream, StreamKind } from './protocol/seams/event-store';
export {
  InMemoryTaskStore, isTerminal, type FinishedBound, type TaskChange, type TaskInputRequest, type TaskOutcome, type TaskPage, type TaskRecord, type TaskStatus, type TaskStore,
} from './protocol/seams/task-store';
export { RedisTaskStore, DEFAULT_MAX_ABANDONED_PER_CALL, type RedisTaskStoreOptions } from './cluster/redis-task-store';

// Types the public API's signatures name, exported so that users can name them too (and the API docs link them).
export type { Constructor } from './metadata/metadata-store';
export type { MemberDecorator } from './decorators/member-decorator';
export type { ClassOrMethodDecorator } from './decorators/pipeline-member.decorator';
export type { ElicitOptions } from './metadata/elicit-options';
export type { GuardShape, InterceptorShape, PipelineMemberRef } from './metadata/pipeline-options';
export type { LogFn } from './context/context';
export type { Resolve } from './server/resolved-instance-source';
export type { TaskOptions } from './protocol/tasks/task-options';
export type { ListChangeListener } from './router/registry';
export type { ItemScopes } from './router/visibility';
export type { PartialBlob, PartialText } from './results/resource-content';
export type { BooleanProperty, EnumChoice, EnumProperty, FormSpec, FormStringFormat, NumberProperty, StringProperty, UrlSpec } from './schema';
export type {
  JsonRpcBatchResponse, JsonRpcFailure, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, JsonRpcSuccess, RequestId,
} from './core/jsonrpc';
export type { ErrorObject } from './core/error-mapper';
export type { ServerListener, SessionListener } from './protocol/seams/session-bus';
export type { BodyRequest, StreamBodyRequest } from './transport/http/body-reader';
export type { HttpRequestLike, HttpResponseLike } from './transport/http/http-like.types';
export { isProviderClass } from './metadata/metadata-store';
