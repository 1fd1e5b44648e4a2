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
