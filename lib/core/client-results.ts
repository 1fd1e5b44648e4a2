import { Method } from './methods';
import type { JsonObject } from './wire.types';

/**
 * What is wrong with a client's `roots/list` result, if anything: it must hold a list of roots,
 * each a `file://` URI with an optional string name (both revisions' schemas say so).
 */
function rootsProblem(result: JsonObject): string | undefined {
  const roots = result.roots;
  if (!Array.isArray(roots)) return '"roots" must be an array';
  for (const [index, root] of roots.entries()) {
    if (typeof root !== 'object' || root === null || Array.isArray(root)) return `roots[${index}] must be an object`;
    const { uri, name } = root as JsonObject;
    if (typeof uri !== 'string' || !uri.startsWith('file://')) return `roots[${index}].uri must be a file:// URI`;
    if (name !== undefined && typeof name !== 'string') return `roots[${index}].name must be a string`;
  }
  return undefined;
}

/** The shape each server-to-client request's result must have, by method. */
const RESULT_PROBLEMS: Readonly<Record<string, (result: JsonObject) => string | undefined>> = Object.freeze({
  [Method.ElicitationCreate]: (r) => (r.action === 'accept' || r.action === 'decline' || r.action === 'cancel' ? undefined : '"action" must be accept, decline or cancel'),
  [Method.SamplingCreateMessage]: (r) => (typeof r.role === 'string' && typeof r.content === 'object' && r.content !== null ? undefined : 'it needs a "role" and a "content" object'),
  [Method.RootsList]: rootsProblem,
});

/**
 * What is wrong with the client's result for a request of the server's (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`), if its shape is not what the method returns. Both eras
 * check answers with it; each reports a problem in its own terms (the session era's `ClientError`,
 * the stateless era's invalid params of the request that carried the answer).
 */
export function clientResultProblem(method: string, result: JsonObject): string | undefined {
  return Object.hasOwn(RESULT_PROBLEMS, method) ? RESULT_PROBLEMS[method](result) : undefined;
}
