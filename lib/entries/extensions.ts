/**
 * `phantom-mcp/extensions`: the extension API (what an extension implements and the host it is
 * given) and the two extensions that ship with the framework, MCP Apps ({@link apps}) and
 * skills ({@link skills}). A server takes extensions in its `extensions` option.
 *
 * The root entry (`phantom-mcp`) exports these names too, for now; this subpath is where they
 * stay.
 *
 * @example
 * import { apps, skills } from 'phantom-mcp/extensions';
 * const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], extensions: [apps(), skills()] });
 *
 * @module phantom-mcp/extensions
 */
export type {
  Extension, ExtensionMethod, ExtensionHost, ExtensionListenFilter, ExtensionBackgroundCalls, BackgroundCall, CallOutcome, ToolCallInfo, ExtensionResource, ExtensionTool,
  FixedExtensionResource, TemplateExtensionResource, TemplateVariables, Negotiation,
  ElicitationFallbackCall, ExtensionServedTool, ExtensionCallOptions, ExtensionTokens, TokenOpening,
} from '../router/extensions/extension';
export { declaresExtension, extensionNotDeclared } from '../router/extensions/extension-set';
export {
  apps, AppsExtension, APPS_EXTENSION_ID, APP_MIME_TYPE, ELICITATION_META_KEY, FORM_SUBMIT_TOOL, FORM_VIEW_URI,
} from '../extensions/apps/apps.extension';
export { DEFAULT_FORM_TTL_MS, DEFAULT_MAX_FORMS_PER_CALL, type AppsOptions } from '../extensions/apps/apps-options';
export { skills, SkillsExtension, SKILLS_EXTENSION_ID, type SkillDefinition, type SkillChanges } from '../extensions/skills/skills.extension';
export {
  DEFAULT_MAX_FILES_PER_SKILL, DEFAULT_MAX_SKILL_BYTES, DEFAULT_SKILLS_CACHE, DEFAULT_SKILLS_PAGE_SIZE, type SkillsOptions,
} from '../extensions/skills/skills-options';
