import type { Context } from '../../context/context';
import type { Method } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';
import { EVERYTHING_VISIBLE, type Visibility, type VisibleItem } from '../visibility';
import { throughPipeline, type HandlerDeps, type MethodHandler } from './method-handler';

/** How one list method reads its items and names them for visibility. */
export interface ListSpec<T> {
  readonly method: Method;
  /** The cursor namespace: a cursor of one list is invalid for another. */
  readonly list: string;
  /** The key of the array in the result (`tools`, `resourceTemplates`...). */
  readonly resultKey: string;
  readonly items: (ctx: Context) => readonly T[] | Promise<readonly T[]>;
  readonly itemOf: (item: T) => VisibleItem;
}

/**
 * A list method (tools, prompts, resources, templates): the caller's visible items, one page at a
 * time, with an opaque cursor; through the list pipeline (the server's guards and interceptors).
 */
export function pagedList<T>({ paginator, visible, pipelines }: HandlerDeps, spec: ListSpec<T>): readonly [Method, MethodHandler] {
  return [spec.method, throughPipeline(pipelines, 'list', spec.method, async (params, ctx) => {
    const items = filtered(await spec.items(ctx), visible, ctx, spec.itemOf);
    const page = paginator.page(spec.list, items, params.cursor);
    const result: JsonObject = { [spec.resultKey]: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  })];
}

/** The items the caller may see; the list itself when everything is visible (the common case). */
function filtered<T>(items: readonly T[], visible: Visibility, ctx: Context, itemOf: (item: T) => VisibleItem): readonly T[] {
  return visible === EVERYTHING_VISIBLE ? items : items.filter((item) => visible(itemOf(item), ctx.principal));
}
