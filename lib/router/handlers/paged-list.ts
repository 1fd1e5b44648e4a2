import type { Context } from '../../context/context';
import type { Method } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';
import { throughPipeline, type HandlerDeps, type MethodHandler } from './method-handler';

/** How one list method reads its items and asks the visibility resolver about each. */
export interface ListSpec<T> {
  readonly method: Method;
  /** The cursor namespace: a cursor of one list is invalid for another. */
  readonly list: string;
  /** The key of the array in the result (`tools`, `resourceTemplates`...). */
  readonly resultKey: string;
  readonly items: (ctx: Context) => readonly T[] | Promise<readonly T[]>;
  /** The item if the caller may know it (a lookup of the visibility resolver), else `undefined`. */
  readonly known: (item: T, principal: unknown) => unknown;
}

/**
 * A list method (tools, prompts, resources, templates): the caller's visible items, one page at a
 * time, with an opaque cursor; through the list pipeline (the server's guards and interceptors).
 */
export function pagedList<T>({ paginator, visibility, pipelines }: HandlerDeps, spec: ListSpec<T>): readonly [Method, MethodHandler] {
  return [spec.method, throughPipeline(pipelines, 'list', spec.method, async (params, ctx) => {
    const items = visibility.filter(await spec.items(ctx), ctx.principal, spec.known);
    const page = paginator.page(spec.list, items, params.cursor);
    const result: JsonObject = { [spec.resultKey]: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  })];
}

