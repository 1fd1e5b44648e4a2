/**
 * `phantom-mcp/extensions`: the extension API, for writing an extension of your own (what an
 * extension implements, the host it is given, the hooks it may add to a call), and the parts of
 * the two extensions that ship with the framework that an extension or a client looks at: MCP
 * Apps ({@link AppsExtension}) and skills ({@link SkillsExtension}), their ids, MIME type and
 * defaults.
 *
 * A server author enables the shipped extensions with `apps()` and `skills()`, from the root
 * entry (`phantom-mcp`), in the server's `extensions` option.
 *
 * @example
 * import { PhantomServer } from 'phantom-mcp';
 * import type { Extension } from 'phantom-mcp/extensions';
 * const audit: Extension = { id: 'com.example/audit' };
 * const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], extensions: [audit] });
 *
 * @module phantom-mcp/extensions
 */
export type {
  Extension, ExtensionMethod, ExtensionHost, ExtensionListenFilter, ExtensionBackgroundCalls, BackgroundCall, CallOutcome, ToolCallInfo, ExtensionResource, ExtensionTool,
  FixedExtensionResource, TemplateExtensionResource, TemplateVariables, Negotiation,
  ElicitationFallbackCall, ExtensionServedTool, ExtensionCallOptions, ExtensionTokens, TokenOpening,
} from '../router/extensions/extension';
export { declaresExtension, extensionNotDeclared } from '../router/extensions/extension-set';
export type { ElicitationFallback, FallbackElicitation } from '../context/elicitation-fallback';
export type { TaskSide, TaskStarter } from '../context/task-starter';
export {
  AppsExtension, APPS_EXTENSION_ID, APP_MIME_TYPE, ELICITATION_META_KEY, FORM_SUBMIT_TOOL, FORM_VIEW_URI,
} from '../extensions/apps/apps.extension';
export { DEFAULT_FORM_TTL_MS, DEFAULT_MAX_FORMS_PER_CALL } from '../extensions/apps/apps-options';
export { SkillsExtension, SKILLS_EXTENSION_ID, type SkillDefinition, type SkillChanges } from '../extensions/skills/skills.extension';
export {
  DEFAULT_MAX_FILES_PER_SKILL, DEFAULT_MAX_SKILL_BYTES, DEFAULT_SKILLS_CACHE, DEFAULT_SKILLS_PAGE_SIZE,
} from '../extensions/skills/skills-options';
