import { ProtocolError } from '../../core/errors';
import { ErrorCode } from '../../core/error-codes';
import type { Diagnostics } from '../../core/diagnostics';
import type { WireResource } from '../../core/wire.types';
import type { CacheHint } from '../../metadata/cache-hint';
import type { TemplateExtensionResource } from '../../router/extensions/extension';
import { readSkillFile, StaleSkillFileError } from './file-reader';
import { isTextType, utf8Text } from './mime-types';
import type { SkillLookup } from './skill-lookup';
import { SKILL_MD } from './skill-uris';

/** The media type of every `SKILL.md`. */
export const SKILL_MD_MIME_TYPE = 'text/markdown';

/**
 * The one resource template that serves every skill file (`skill://{+path}`, under the prefix):
 * it lists each visible skill's `SKILL.md`, reads any file of a visible skill (text when its type
 * is textual and its bytes UTF-8, a blob otherwise; `SKILL.md` always text as `text/markdown`),
 * and says a hidden skill's URIs are unknown to the caller.
 */
export function skillResource(lookup: SkillLookup, diagnostics: () => Diagnostics, cache: CacheHint): TemplateExtensionResource {
  return {
    uriTemplate: lookup.uris.template,
    name: 'skills',
    description: 'The files of the skills this server serves (Skills extension)',
    cache,
    list: async (ctx) => lookup.visible(ctx.principal).map((skill): WireResource => {
      const description = skill.frontmatter.description as string;
      const skillMd = skill.content.kind === 'static' ? skill.content.files.get(SKILL_MD) : undefined;
      return { uri: skill.uri, name: skill.name, description, mimeType: SKILL_MD_MIME_TYPE, ...(skillMd ? { size: skillMd.size } : {}) };
    }),
    knows: (uri, _variables, principal) => {
      const parsed = lookup.parse(uri);
      return parsed !== undefined && (parsed.kind === 'prefix' || lookup.resource(uri, principal) !== undefined);
    },
    read: async (uri, _variables, ctx) => {
      const found = lookup.resource(uri, ctx.principal);
      if (found === undefined || found.path === '') return undefined;
      lookup.access.authorize(found.skill, ctx.principal);
      const { files } = await lookup.files(found.skill, ctx);
      const file = files.get(found.path);
      if (file === undefined || lookup.uris.file(found.skill.name, file.path) !== uri) return undefined;
      let bytes: Uint8Array;
      try {
        bytes = await readSkillFile(file, found.skill.content.kind === 'static' ? found.skill.content.root : undefined);
      } catch (error) {
        if (!(error instanceof StaleSkillFileError)) throw error;
        diagnostics().warn(error.message);
        throw new ProtocolError(ErrorCode.InternalError, `${uri} changed since its skill was published; it is not served until the server reloads its skills`);
      }
      const isSkillMd = file.path === SKILL_MD;
      const text = isSkillMd || isTextType(file.mimeType) ? utf8Text(bytes) : undefined;
      if (text !== undefined) return { uri, mimeType: isSkillMd ? SKILL_MD_MIME_TYPE : file.mimeType, text };
      return { uri, mimeType: file.mimeType, blob: Buffer.from(bytes).toString('base64') };
    },
  };
}
