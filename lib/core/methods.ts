/** Every MCP method and notification name the framework speaks, typed once. */
export const Method = Object.freeze({
  Initialize: 'initialize',
  Ping: 'ping',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  ResourcesList: 'resources/list',
  ResourcesTemplatesList: 'resources/templates/list',
  ResourcesRead: 'resources/read',
  ResourcesSubscribe: 'resources/subscribe',
  ResourcesUnsubscribe: 'resources/unsubscribe',
  PromptsList: 'prompts/list',
  PromptsGet: 'prompts/get',
  CompletionComplete: 'completion/complete',
  LoggingSetLevel: 'logging/setLevel',
  ElicitationCreate: 'elicitation/create',
  SamplingCreateMessage: 'sampling/createMessage',
  RootsList: 'roots/list',
} as const);
/** The name of a JSON-RPC request method MCP defines (one of the values of {@link Method}). */
export type Method = (typeof Method)[keyof typeof Method];

/** Every MCP notification name the framework sends or receives, typed once. */
export const Notification = Object.freeze({
  Initialized: 'notifications/initialized',
  Cancelled: 'notifications/cancelled',
  Progress: 'notifications/progress',
  Message: 'notifications/message',
  ResourceUpdated: 'notifications/resources/updated',
  ResourceListChanged: 'notifications/resources/list_changed',
  ToolListChanged: 'notifications/tools/list_changed',
  PromptListChanged: 'notifications/prompts/list_changed',
  ElicitationComplete: 'notifications/elicitation/complete',
  RootsListChanged: 'notifications/roots/list_changed',
} as const);
/** The name of an MCP notification (one of the values of {@link Notification}). */
export type Notification = (typeof Notification)[keyof typeof Notification];

/** The lists a server serves, each announced by its own `list_changed` notification. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** The notification that announces a change to each list. */
export const LIST_CHANGED: Readonly<Record<ListKind, Notification>> = Object.freeze({
  tools: Notification.ToolListChanged,
  prompts: Notification.PromptListChanged,
  resources: Notification.ResourceListChanged,
});
