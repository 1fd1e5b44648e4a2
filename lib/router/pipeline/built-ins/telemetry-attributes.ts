import type { ExecutionContext } from '../execution-context';
import type { OperationOutcome } from './operation-outcome';

/**
 * The attribute names, from the OpenTelemetry semantic conventions for MCP (GenAI conventions,
 * "mcp.server" spans and the `mcp.server.operation.duration` metric; Development status), with
 * `enduser.id` from the general registry and two of phantom-mcp's own under `phantom_mcp.`.
 */
export const ATTR = Object.freeze({
  method: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  toolArguments: 'gen_ai.tool.call.arguments',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  subject: 'enduser.id',
  era: 'phantom_mcp.era',
  outcome: 'phantom_mcp.outcome',
});

/** `mcp.server.operation.duration`: seconds, with the buckets the conventions advise. */
export const DURATION_METRIC = Object.freeze({
  name: 'mcp.server.operation.duration',
  unit: 's',
  description: 'MCP request duration as observed on the server, from when the pipeline admitted it until its handler answered',
  buckets: Object.freeze([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]),
});

type Attributes = Record<string, string>;

/**
 * `tools/call notes_write`, `prompts/get plan`; other methods by their name alone. A resource URI
 * is not in the name: the conventions keep span names low in cardinality (it is `mcp.resource.uri`).
 */
export function spanNameOf(call: ExecutionContext): string {
  return (call.kind === 'tool' || call.kind === 'prompt') && call.target !== undefined ? `${call.method} ${call.target}` : call.method;
}

/**
 * What identifies the operation on a metric point: low in cardinality by construction. The
 * method (a fixed set), the tool or prompt name (interceptors only see targets the router
 * resolved, so a name is one the server defines, never a client's guess), the era and version
 * (a fixed set), and what the outcome adds. Never a URI, a session, a subject or a request id.
 */
export function operationAttributes(call: ExecutionContext): Attributes {
  const attributes: Attributes = { [ATTR.method]: call.method };
  if (call.target !== undefined) {
    if (call.kind === 'tool') {
      attributes[ATTR.toolName] = call.target;
      attributes[ATTR.operationName] = 'execute_tool';
    } else if (call.kind === 'prompt') {
      attributes[ATTR.promptName] = call.target;
    }
  }
  const { era, protocolVersion } = call.context;
  if (protocolVersion !== undefined) attributes[ATTR.protocolVersion] = protocolVersion;
  if (era !== undefined) attributes[ATTR.era] = era;
  return attributes;
}

/** What a span adds to those: the request's own identifiers, and the arguments when asked. */
export function requestAttributes(call: ExecutionContext, options: { recordArguments: boolean; recordSubject: boolean }): Attributes {
  const attributes = operationAttributes(call);
  const { context } = call;
  const uri = resourceUriOf(call);
  if (uri !== undefined) attributes[ATTR.resourceUri] = uri;
  if (context.requestId !== undefined) attributes[ATTR.requestId] = String(context.requestId);
  if (context.sessionId !== undefined) attributes[ATTR.sessionId] = context.sessionId;
  const subject = options.recordSubject ? subjectOf(context.principal) : undefined;
  if (subject !== undefined) attributes[ATTR.subject] = subject;
  if (options.recordArguments && call.kind === 'tool') attributes[ATTR.toolArguments] = JSON.stringify(call.arguments);
  return attributes;
}

type OutcomeOf<K extends OperationOutcome['kind']> = Extract<OperationOutcome, { readonly kind: K }>;

const OUTCOME_ATTRIBUTES: { readonly [K in OperationOutcome['kind']]: (outcome: OutcomeOf<K>) => Attributes } = Object.freeze({
  result: () => ({ [ATTR.outcome]: 'result' }),
  input_required: () => ({ [ATTR.outcome]: 'input_required' }),
  tool_error: () => ({ [ATTR.outcome]: 'tool_error', [ATTR.errorType]: 'tool_error' }),
  protocol_error: ({ code }: OutcomeOf<'protocol_error'>) => ({ [ATTR.outcome]: 'protocol_error', [ATTR.errorType]: String(code), [ATTR.statusCode]: String(code) }),
});

/** What the outcome adds, to spans and metric points alike (`error.type` as the conventions say). */
export function outcomeAttributes(outcome: OperationOutcome): Attributes {
  return (OUTCOME_ATTRIBUTES[outcome.kind] as (outcome: OperationOutcome) => Attributes)(outcome);
}

function resourceUriOf(call: ExecutionContext): string | undefined {
  if (call.kind === 'resource') return call.target;
  // resources/subscribe and resources/unsubscribe name theirs in the params.
  const uri = call.kind === 'subscription' ? call.arguments.uri : undefined;
  return typeof uri === 'string' ? uri : undefined;
}

/** The principal's `subject` or `sub` (a JWT's claim), when the principal is an object that has one. */
export function subjectOf(principal: unknown): string | undefined {
  if (typeof principal !== 'object' || principal === null) return undefined;
  const { subject, sub } = principal as { subject?: unknown; sub?: unknown };
  if (typeof subject === 'string') return subject;
  return typeof sub === 'string' ? sub : undefined;
}
