import type { JsonObject, WireTool } from '../../core/wire.types';
import type { ToolUiAudience, ToolUiOptions } from '../../metadata/tool-ui-options';
import { FORM_VIEW_URI, UI_SCHEME } from './app-ids';

/** What a tool's listing says of its View: the `_meta.ui` of the specification (two fields only). */
export interface ToolUiBinding {
  readonly resourceUri: string;
  /** As written; omitted, the specification's default (`['model', 'app']`). */
  readonly visibility?: readonly ToolUiAudience[];
  /** Whether only the View may call the tool (its visibility lacks `model`). */
  readonly appOnly: boolean;
}

/** The URI a tool's own View is served at when `resourceUri` does not say. */
export function defaultViewUri(toolName: string): string {
  return `${UI_SCHEME}tools/${toolName}.html`;
}

/** The binding of a tool listed with the framework's form View only (`apps({ forms: true })`, no `@ToolUi`). */
export const FORM_VIEW_BINDING: ToolUiBinding = Object.freeze({ resourceUri: FORM_VIEW_URI, appOnly: false });

/** `@ToolUi({ forms: false })` and nothing else: the tool opts out of `apps({ forms: true })`, and has no View. */
export function isFormsOptOut(options: ToolUiOptions): boolean {
  return options.forms === false && options.html === undefined && options.file === undefined && options.resourceUri === undefined;
}

/** The binding `@ToolUi` gives the tool `toolName`. */
export function bindingOf(toolName: string, options: ToolUiOptions): ToolUiBinding {
  const visibility = options.visibility;
  return {
    // `@ToolUi({ forms: true })` alone: the framework's form View.
    resourceUri: options.resourceUri ?? (options.forms === true && options.html === undefined && options.file === undefined ? FORM_VIEW_URI : defaultViewUri(toolName)),
    visibility,
    appOnly: Array.isArray(visibility) && !visibility.includes('model'),
  };
}

/**
 * The tool as listed with its View: `_meta.ui` (`resourceUri`, and `visibility` when given) merged
 * over what the tool's own `_meta.ui` holds, and the deprecated flat `ui/resourceUri` when `legacy`.
 */
export function listedWithUi(tool: WireTool, binding: ToolUiBinding, legacy: boolean): WireTool {
  const meta: JsonObject = { ...tool._meta };
  const own = typeof meta.ui === 'object' && meta.ui !== null && !Array.isArray(meta.ui) ? meta.ui as JsonObject : {};
  const ui: JsonObject = { ...own, resourceUri: binding.resourceUri };
  if (binding.visibility !== undefined) ui.visibility = [...binding.visibility];
  meta.ui = ui;
  if (legacy) meta['ui/resourceUri'] = binding.resourceUri;
  return Object.freeze({ ...tool, _meta: meta });
}
