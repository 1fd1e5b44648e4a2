import { readFile } from 'node:fs/promises';
import type { JsonObject } from '../../core/wire.types';
import type { ToolUiOptions } from '../../metadata/tool-ui-options';
import type { ExtensionTool } from '../../router/extensions/extension';
import { FORM_VIEW_URI, UI_SCHEME } from './app-ids';
import { asksForAppSdk, loadAppSdk, locateAppSdk, withAppSdk } from './app-sdk';
import { bindingOf, isFormsOptOut } from './tool-ui-binding';
import type { ToolUiRecords } from './tool-ui-records';

/** One View the extension serves: a `ui://` resource. */
export interface AppView {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  /** The document, with the SDK inlined where it asked for it. */
  readonly html: string;
  /** The resource's `_meta.ui` (CSP, permissions, domain, border), when it declares any. */
  readonly ui?: JsonObject;
  /** `Class#method` of the tool that declared it. */
  readonly label: string;
}

/** The Views the tools declare, and every problem found (all at once). */
export interface CompiledViews {
  readonly views: readonly AppView[];
  /** How many tools have a `@ToolUi`. */
  readonly uiTools: number;
  readonly problems: readonly string[];
}

const AUDIENCES: ReadonlySet<unknown> = new Set(['model', 'app']);
const CSP_KEYS: ReadonlySet<string> = new Set(['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains']);
const PERMISSION_KEYS: ReadonlySet<string> = new Set(['camera', 'microphone', 'geolocation', 'clipboardWrite']);
/** What describes the View itself: given only with the View (`html` or `file`). */
const RESOURCE_FIELDS = ['csp', 'permissions', 'domain', 'prefersBorder'] as const;

/** What the tools' `@ToolUi` records declare, checked, with each View's document read and the SDK inlined where asked. */
export async function compileViews(tools: readonly ExtensionTool[], records: ToolUiRecords, sdkModule: string | undefined): Promise<CompiledViews> {
  const problems: string[] = [];
  const views: AppView[] = [];
  const byUri = new Map<string, string>();
  let uiTools = 0;
  let sdk: Promise<string> | undefined;
  const inlined = (label: string): Promise<string | undefined> => {
    const located = locateAppSdk(sdkModule);
    if (located.path === undefined) {
      problems.push(`${label}: its View asks for the MCP Apps SDK (<script data-mcp-apps-sdk>), and ${located.problem}`);
      return Promise.resolve(undefined);
    }
    return (sdk ??= loadAppSdk(located.path)).catch((error: Error) => {
      problems.push(`${label}: ${error.message}`);
      return undefined;
    });
  };
  problems.push(...strayRecords(tools, records));
  for (const tool of tools) {
    const options = records.get(tool.owner, tool.member);
    if (options === undefined) continue;
    if (!isFormsOptOut(options)) uiTools += 1;
    const label = `${tool.owner.name}#${tool.member}`;
    const found = optionProblems(options).map((problem) => `${label}: @ToolUi ${problem}`);
    if (options.forms === true && tool.descriptor.outputSchema !== undefined) {
      found.push(`${label}: @ToolUi forms: the tool has an output schema, and clients reject its result without structured content (the waiting result has none)`);
    }
    problems.push(...found);
    if (found.length > 0 || (options.html === undefined && options.file === undefined)) continue;
    const uri = bindingOf(tool.name, options).resourceUri;
    if (uri === FORM_VIEW_URI) {
      problems.push(`${label}: @ToolUi serves a View at ${uri}, which is the framework's form View`);
      continue;
    }
    const earlier = byUri.get(uri);
    if (earlier !== undefined) {
      problems.push(`${label}: @ToolUi serves a View at ${uri}, which ${earlier} serves already (name it with resourceUri and no html or file to share it)`);
      continue;
    }
    byUri.set(uri, label);
    let html = options.html;
    if (html === undefined) {
      try {
        html = await readFile(options.file!, 'utf8');
      } catch (error) {
        problems.push(`${label}: @ToolUi file ${options.file} cannot be read: ${(error as Error).message}`);
        continue;
      }
    }
    if (asksForAppSdk(html)) {
      const source = await inlined(label);
      if (source === undefined) continue;
      html = withAppSdk(html, source);
    }
    const ui = resourceUi(options);
    views.push({ uri, name: options.name ?? `${tool.name} view`, description: options.description, html, ui, label });
  }
  return { views, uiTools, problems };
}

/** `@ToolUi` on a method that is no tool: the decorator would do nothing, which is never what was meant. */
function strayRecords(tools: readonly ExtensionTool[], records: ToolUiRecords): string[] {
  const members = new Map<ExtensionTool['owner'], Set<string>>();
  for (const tool of tools) {
    const set = members.get(tool.owner) ?? new Set<string>();
    set.add(tool.member);
    members.set(tool.owner, set);
  }
  return [...members].flatMap(([owner, served]) => [...records.of(owner).keys()]
    .filter((member) => !served.has(member))
    .map((member) => `${owner.name}#${member}: @ToolUi on a method that is not a @Tool`));
}

/** What is wrong with one `@ToolUi`'s options, each problem once. */
function optionProblems(options: ToolUiOptions): string[] {
  const problems: string[] = [];
  const { html, file, resourceUri, visibility, csp, permissions, domain, prefersBorder, forms } = options;
  if (forms !== undefined && typeof forms !== 'boolean') problems.push('forms must be a boolean');
  if (html !== undefined && file !== undefined) problems.push('takes html or file, not both');
  if (html !== undefined && typeof html !== 'string') problems.push('html must be a string');
  if (file !== undefined && (typeof file !== 'string' || file.length === 0)) problems.push('file must be a path');
  if (html === undefined && file === undefined) {
    // forms alone: true shows the tool's forms in the framework's View; false opts it out of apps({ forms: true }).
    if (resourceUri === undefined && forms === undefined) problems.push('needs html, file, the resourceUri of a View served elsewhere, or forms');
    const misplaced = RESOURCE_FIELDS.filter((field) => options[field] !== undefined);
    if (misplaced.length > 0) problems.push(`gives ${misplaced.join(', ')} without html or file: they describe the View, so they go where it is served`);
  }
  if (resourceUri !== undefined && (typeof resourceUri !== 'string' || !resourceUri.startsWith(UI_SCHEME) || resourceUri.length === UI_SCHEME.length)) {
    problems.push(`resourceUri must be a ${UI_SCHEME} URI; got ${JSON.stringify(resourceUri)}`);
  }
  if (visibility !== undefined && (!Array.isArray(visibility) || visibility.length === 0 || !visibility.every((who) => AUDIENCES.has(who)) || new Set(visibility).size !== visibility.length)) {
    problems.push(`visibility must list "model", "app" or both, each once; got ${JSON.stringify(visibility)}`);
  }
  if (csp !== undefined) problems.push(...recordProblems('csp', csp, CSP_KEYS, (value) => Array.isArray(value) && value.every((origin) => typeof origin === 'string' && origin.length > 0), 'a list of origins'));
  if (permissions !== undefined) problems.push(...recordProblems('permissions', permissions, PERMISSION_KEYS, (value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'an object ({})'));
  if (domain !== undefined && (typeof domain !== 'string' || domain.length === 0)) problems.push('domain must be a non-empty string');
  if (prefersBorder !== undefined && typeof prefersBorder !== 'boolean') problems.push('prefersBorder must be a boolean');
  return problems;
}

function recordProblems(field: string, value: unknown, keys: ReadonlySet<string>, valid: (value: unknown) => boolean, what: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${field} must be an object`];
  return Object.entries(value).flatMap(([key, entry]) => {
    if (!keys.has(key)) return [`${field}.${key} is not a field of MCP Apps (${[...keys].join(', ')})`];
    return valid(entry) ? [] : [`${field}.${key} must be ${what}`];
  });
}

/** The resource's `_meta.ui`: the fields given, copied (the options stay the user's). */
function resourceUi(options: ToolUiOptions): JsonObject | undefined {
  const ui: JsonObject = {};
  if (options.csp !== undefined) ui.csp = JSON.parse(JSON.stringify(options.csp)) as JsonObject;
  if (options.permissions !== undefined) ui.permissions = JSON.parse(JSON.stringify(options.permissions)) as JsonObject;
  if (options.domain !== undefined) ui.domain = options.domain;
  if (options.prefersBorder !== undefined) ui.prefersBorder = options.prefersBorder;
  return Object.keys(ui).length > 0 ? Object.freeze(ui) : undefined;
}
