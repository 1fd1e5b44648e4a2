/**
 * `phantom-mcp/protocol`: the protocol as it travels, for code that speaks it rather than serves
 * it through decorators: a custom transport, an extension's methods, a client or a test. The
 * JSON-RPC message types, the MCP method and notification names, and the wire shapes of the list
 * results (a tool, a resource, a template, a prompt as `tools/list` and the others send them).
 *
 * What a handler returns and reads (`CallToolResult`, the content blocks, `ClientCapabilities`,
 * `JsonObject`...) is in the root entry (`phantom-mcp`).
 *
 * @example
 * import { Method, type JsonRpcMessage } from 'phantom-mcp/protocol';
 * const call: JsonRpcMessage = { jsonrpc: '2.0', id: 1, method: Method.ToolsCall, params: { name: 'forecast', arguments: { city: 'Oslo' } } };
 *
 * @module phantom-mcp/protocol
 */
export { Method, Notification } from '../core/methods';
export type {
  JsonRpcBatchResponse, JsonRpcFailure, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, JsonRpcSuccess, RequestId,
} from '../core/jsonrpc';
export type { ErrorObject } from '../core/error-mapper';
export type {
  WireTool, WireResource, WireResourceTemplate, WirePrompt, WirePromptArgument, ToolAnnotations, LOGGING_LEVELS,
} from '../core/wire.types';
