import type { Context } from '../../context/context';
import { ProtocolError } from '../../core/errors';
import type { JsonObject, WireResource } from '../../core/wire.types';
import type { CacheHint } from '../../metadata/cache-hint';
import type { ExtensionMethod } from '../../router/extensions/extension';
import { entryOf } from './skill-catalog';
import { pageAfter, SkillCursor } from './skill-cursor';
import type { SkillLookup } from './skill-lookup';
import type { SkillFiles } from './skill-model';
import type { TreeChild } from './skill-tree';
import { mimeTypeOf } from './mime-types';

/** The extension's method names. */
export const SKILL_METHODS = Object.freeze({
  list: 'skills/list',
  get: 'skills/get',
  directoryRead: 'resources/directory/read',
} as const);

/** The media type of a directory resource. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** What the methods need. */
export interface SkillMethodSettings {
  readonly pageSize: number;
  readonly cache: CacheHint;
  readonly directoryRead: boolean;
}

/** The params' `uri`, which must be a string. */
function uriParam(params: JsonObject): string {
  if (typeof params.uri !== 'string' || params.uri === '') throw ProtocolError.invalidParams('params.uri must be a non-empty string');
  return params.uri;
}

/** `skills/list`, `skills/get` and (when enabled) `resources/directory/read`, by method name. */
export function skillMethods(lookup: SkillLookup, settings: SkillMethodSettings): Record<string, ExtensionMethod> {
  const fileUri = (name: string, path: string): string => lookup.uris.file(name, path);
  const methods: Record<string, ExtensionMethod> = {
    [SKILL_METHODS.list]: {
      cache: settings.cache,
      handle: async (params, ctx) => {
        const after = SkillCursor.decode(SKILL_METHODS.list, params.cursor);
        const page = pageAfter(lookup.visible(ctx.principal), (skill) => skill.uri, after, settings.pageSize, SKILL_METHODS.list);
        const result: JsonObject = { skills: page.items.map((skill) => entryOf(skill, fileUri)) };
        if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
        return result;
      },
    },
    [SKILL_METHODS.get]: {
      cache: settings.cache,
      handle: async (params, ctx) => {
        const uri = uriParam(params);
        const skill = lookup.skillAt(uri, ctx.principal);
        if (skill === undefined) throw ProtocolError.invalidParams(`No skill is served at ${uri}`, { uri });
        lookup.access.authorize(skill, ctx.principal);
        return { skill: { ...entryOf(skill, fileUri), uri } };
      },
    },
  };
  if (settings.directoryRead) {
    methods[SKILL_METHODS.directoryRead] = {
      // A cacheable result in 2026-07-28, as resources/list is (the official client refuses one without ttlMs and cacheScope).
      cache: settings.cache,
      handle: async (params, ctx) => {
        const uri = uriParam(params);
        const after = SkillCursor.decode(SKILL_METHODS.directoryRead, params.cursor);
        const children = await directoryChildren(lookup, uri, ctx);
        if (children === undefined) throw ProtocolError.invalidParams(`${uri} is not a directory resource`, { uri });
        const page = pageAfter(children, (child) => child.uri, after, settings.pageSize, SKILL_METHODS.directoryRead);
        const result: JsonObject = { resources: page.items };
        if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
        return result;
      },
    };
  }
  return methods;
}

function directoryResource(uri: string, name: string): WireResource {
  return { uri, name, mimeType: DIRECTORY_MIME_TYPE };
}

function byUri(a: WireResource, b: WireResource): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

/** The direct children of the directory `uri` names, in URI order; `undefined` when it names no directory this caller may know. */
async function directoryChildren(
  lookup: SkillLookup,
  uri: string,
  ctx: Context,
): Promise<WireResource[] | undefined> {
  const parsed = lookup.parse(uri);
  if (parsed === undefined) return undefined;
  const { uris } = lookup;
  if (parsed.kind === 'prefix') {
    if (parsed.depth === 0) return undefined;
    if (parsed.depth < uris.prefixDepth) {
      const child = uris.prefixDirectory(parsed.depth + 1);
      return [directoryResource(child, child.slice(child.lastIndexOf('/') + 1))];
    }
    return lookup.visible(ctx.principal).map((skill) => directoryResource(uris.directory(skill.name), skill.name)).sort(byUri);
  }
  const found = lookup.resource(uri, ctx.principal);
  if (found === undefined || uris.directory(found.skill.name, found.path) !== uri) return undefined;
  lookup.access.authorize(found.skill, ctx.principal);
  const { files: all, tree } = await lookup.files(found.skill, ctx);
  const children = tree.list(found.path);
  if (children === undefined) return undefined;
  return children.map((child) => childResource(uris, found.skill.name, child, all)).sort(byUri);
}

function childResource(uris: SkillLookup['uris'], name: string, child: TreeChild, all: SkillFiles['files']): WireResource {
  const base = child.path.slice(child.path.lastIndexOf('/') + 1);
  if (child.directory) return directoryResource(uris.directory(name, child.path), base);
  const file = all.get(child.path);
  return { uri: uris.file(name, child.path), name: base, mimeType: file?.mimeType ?? mimeTypeOf(child.path), ...(file ? { size: file.size } : {}) };
}
