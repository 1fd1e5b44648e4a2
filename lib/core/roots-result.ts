import type { JsonObject } from './wire.types';

/**
 * What is wrong with a client's `roots/list` result, if anything: it must hold a list of roots,
 * each a `file://` URI with an optional string name (both revisions' schemas say so). Both eras
 * check answers with it; each reports a problem in its own terms.
 */
export function rootsResultProblem(result: JsonObject): string | undefined {
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
