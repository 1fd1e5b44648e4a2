import type { ClientCapabilities, JsonObject } from '../../core/wire.types';

/** The MCP Apps extension's identifier (SEP-1865, specification 2026-01-26). */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The MIME type of an MCP Apps View (an HTML5 document served as a `ui://` resource). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The scheme every View's URI has. */
export const UI_SCHEME = 'ui://';

/**
 * Whether a client can render Views: it declares `capabilities.extensions["io.modelcontextprotocol/ui"]`
 * and, when it lists the `mimeTypes` it renders (the specification requires it to), that list
 * holds {@link APP_MIME_TYPE}. A declaration without the list is taken as support.
 */
export function rendersApps(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as JsonObject | undefined)?.extensions;
  if (typeof extensions !== 'object' || extensions === null || Array.isArray(extensions)) return false;
  if (!Object.hasOwn(extensions, APPS_EXTENSION_ID)) return false;
  const settings = (extensions as JsonObject)[APPS_EXTENSION_ID];
  const mimeTypes = typeof settings === 'object' && settings !== null && !Array.isArray(settings) ? (settings as JsonObject).mimeTypes : undefined;
  return !Array.isArray(mimeTypes) || mimeTypes.includes(APP_MIME_TYPE);
}

/** The framework's form View: renders a pending `@Elicit` form for a tool without a View of its own. */
export const FORM_VIEW_URI = 'ui://phantom-mcp/elicitation';

/** The app-only tool the form View submits an answer to (`{ token, action, content }`). */
export const FORM_SUBMIT_TOOL = 'phantom_elicitation_submit';

/**
 * The result `_meta` key of a call that waits for a form answered in a View:
 * `{ message, requestedSchema, token, issues? }` (`issues` when the last answer was invalid).
 */
export const ELICITATION_META_KEY = 'io.github.phantom-mcp/elicitation';

/**
 * Whether a client shows form elicitations itself: it declares `capabilities.elicitation`, with
 * `form` (or neither mode: the bare 2025-06-18 shape means form).
 */
export function elicitsForms(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = (capabilities as JsonObject | undefined)?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  const modes = elicitation as JsonObject;
  return modes.form !== undefined || modes.url === undefined;
}
