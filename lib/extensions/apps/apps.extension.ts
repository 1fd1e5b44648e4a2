import { DefinitionError } from '../../core/errors';
import type { JsonObject, WireTool } from '../../core/wire.types';
import type { ElicitationFallback } from '../../context/elicitation-fallback';
import type {
  ElicitationFallbackCall, Extension, ExtensionHost, ExtensionResource, ExtensionTokens, ExtensionTool, Negotiation,
} from '../../router/extensions/extension';
import { APP_MIME_TYPE, APPS_EXTENSION_ID, elicitsForms, FORM_SUBMIT_TOOL, FORM_VIEW_URI, rendersApps } from './app-ids';
import { loadAppSdk, locateAppSdk, withAppSdk } from './app-sdk';
import { compileViews, type AppView } from './app-views';
import { resolveAppsOptions, type AppsOptions, type ResolvedAppsOptions } from './apps-options';
import { FormFallback } from './form-fallback';
import { formSubmitTool } from './form-submit.tool';
import { formViewHtml } from './form-view';
import { bindingOf, FORM_VIEW_BINDING, isFormsOptOut, listedWithUi, type ToolUiBinding } from './tool-ui-binding';
import { ToolUiRecords } from './tool-ui-records';

export { APP_MIME_TYPE, APPS_EXTENSION_ID, ELICITATION_META_KEY, FORM_SUBMIT_TOOL, FORM_VIEW_URI } from './app-ids';

/** The purpose of the tokens that carry a pending form (`ExtensionHost#tokens`). */
const FORM_TOKENS = 'elicitation-form';
const NO_ANSWERS: JsonObject = Object.freeze(Object.create(null) as JsonObject);

/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, specification 2026-01-26), built on the
 * public extension API: each `@ToolUi` View served as a `ui://` resource (`text/html;profile=mcp-app`,
 * its `_meta.ui` on the listing and on the read contents), each UI tool listed with `_meta.ui`,
 * tools only a View calls hidden from clients that did not declare the extension. Advertised only
 * while some tool has a UI. With `forms`, `@Elicit` forms reach clients that render Views but
 * cannot elicit: shown by the form View, answered through the app-only `phantom_elicitation_submit`
 * tool, the handler run again with the validated answer. Made by {@link apps}.
 *
 * Everything it serves follows from the code (the decorators and the files they name, read at
 * start-up), so every replica behind a load balancer serves the same, in both protocol eras.
 */
export class AppsExtension implements Extension {
  readonly id = APPS_EXTENSION_ID;
  readonly clientMustDeclare = false;
  readonly requires = ['tools'] as const;
  private readonly options: ResolvedAppsOptions;
  private readonly records = new ToolUiRecords();
  /** Each tool's listing with its View, by the listing it was made from (a new listing, a new entry). */
  private readonly listed = new WeakMap<WireTool, WireTool>();
  /** The Views served now, by URI. */
  private views = new Map<string, AppView>();
  private uiTools = 0;
  /** Whether some tool may show its forms as an app (`forms`, server-wide or per tool). */
  private formsUsed = false;
  private submitServed = false;
  private formTokens?: ExtensionTokens;
  private host?: ExtensionHost;
  private refreshing: Promise<unknown> = Promise.resolve();

  constructor(options: AppsOptions = {}) {
    this.options = resolveAppsOptions(options);
  }

  /** `{}` while some tool has a View, or shows its forms as an app (in both eras, to every client); nothing otherwise. */
  settings(): JsonObject | undefined {
    return this.uiTools > 0 || this.formsUsed ? {} : undefined;
  }

  /** Reads and checks every `@ToolUi` (all problems in one `DefinitionError`) and serves the Views. */
  async setup(host: ExtensionHost): Promise<void> {
    this.host = host;
    this.formTokens = host.tokens(FORM_TOKENS);
    await this.load(host);
  }

  /**
   * Reads every `@ToolUi` of the tools the server serves now again, and serves what changed:
   * call it after `server.add()` of a class with Views (or `removeTool`), or to pick up edited
   * View files. When any problem is found, nothing changes and the `DefinitionError` lists them
   * all. Refreshes run one at a time. Until a tool's own View is served, the tool is listed
   * without `_meta.ui` (its text is what clients get). Behind a load balancer, refresh every replica.
   */
  refresh(): Promise<void> {
    const host = this.host;
    if (host === undefined) return Promise.reject(new Error('apps: refresh() before the server started'));
    const next = this.refreshing.then(() => this.load(host));
    this.refreshing = next.catch(() => undefined);
    return next;
  }

  /**
   * A UI tool as this client sees it: with `_meta.ui` (and the flat `ui/resourceUri`), or hidden
   * when only its View may call it and the client cannot render Views (`hideAppOnlyTools`).
   */
  tool(tool: ExtensionTool, negotiation: Negotiation): WireTool | undefined {
    if (this.isSubmitTool(tool)) return this.options.hideAppOnlyTools && !rendersApps(negotiation.clientCapabilities) ? undefined : tool.descriptor;
    const options = this.records.get(tool.owner, tool.member);
    if (options === undefined) return this.servesForms(tool) ? this.withUi(tool.descriptor, FORM_VIEW_BINDING) : tool.descriptor;
    if (isFormsOptOut(options)) return tool.descriptor;
    const binding = bindingOf(tool.name, options);
    // A View of its own not served (yet): no _meta.ui pointing at nothing.
    if ((options.html !== undefined || options.file !== undefined) && !this.views.has(binding.resourceUri)) return tool.descriptor;
    if (binding.appOnly && this.options.hideAppOnlyTools && !rendersApps(negotiation.clientCapabilities)) return undefined;
    return this.withUi(tool.descriptor, binding);
  }

  /**
   * The fallback for a call's forms, when the call may show them as an app: its client renders
   * Views and did not declare form elicitation, and the tool shows its forms as an app (`forms`).
   */
  elicitationFallback(call: ElicitationFallbackCall): ElicitationFallback | undefined {
    if (!this.formsUsed || this.formTokens === undefined) return undefined;
    const capabilities = call.negotiation.clientCapabilities;
    if (elicitsForms(capabilities) || !rendersApps(capabilities) || !this.servesForms(call.tool)) return undefined;
    const limits = { ttlMs: this.options.formTtlMs, maxForms: this.options.maxFormsPerCall };
    return new FormFallback({ tool: call.tool.name, arguments: call.arguments, answers: NO_ANSWERS, principal: call.principal }, this.formTokens, limits);
  }

  /**
   * Whether `tool` shows its forms as an app: `@ToolUi({ forms })` says, else `apps({ forms })`
   * for a tool without a View of its own and without an output schema (the waiting result has no
   * structured content for it).
   */
  private servesForms(tool: ExtensionTool): boolean {
    if (this.isSubmitTool(tool)) return false;
    const options = this.records.get(tool.owner, tool.member);
    if (options?.forms !== undefined) return options.forms;
    return this.options.forms && options === undefined && tool.descriptor.outputSchema === undefined;
  }

  private isSubmitTool(tool: ExtensionTool): boolean {
    return tool.owner === AppsExtension && tool.name === FORM_SUBMIT_TOOL;
  }

  /** Compiles the Views of the tools served now and swaps them in: those gone stop, new and changed ones are served. */
  private async load(host: ExtensionHost): Promise<void> {
    const tools = host.tools();
    const compiled = await compileViews(tools, this.records, this.options.sdkModule);
    const formsUsed = tools.some((tool) => this.servesForms(tool));
    const formView = formsUsed ? await this.formView() : undefined;
    const problems = [...compiled.problems, ...(typeof formView === 'string' ? [formView] : [])];
    if (problems.length > 0) throw new DefinitionError(problems.map((problem) => `apps: ${problem}`));
    const views = formView === undefined || typeof formView === 'string' ? compiled.views : [...compiled.views, formView];
    if (formsUsed && !this.submitServed) {
      host.serveTools([formSubmitTool(host, this.formTokens!, { ttlMs: this.options.formTtlMs, maxForms: this.options.maxFormsPerCall })]);
      this.submitServed = true;
    }
    this.formsUsed = formsUsed;
    const next = new Map(views.map((view) => [view.uri, view]));
    for (const [uri, served] of this.views) {
      const replacement = next.get(uri);
      if (replacement === undefined || !sameView(served, replacement)) host.stopServingResource(uri);
    }
    const added = views.filter((view) => !sameView(this.views.get(view.uri), view));
    if (added.length > 0) host.serveResources(added.map(viewResource));
    this.views = next;
    this.uiTools = compiled.uiTools;
  }

  /** The framework's form View, with the SDK inlined; what is wrong when the SDK cannot be found or read. */
  private async formView(): Promise<AppView | string> {
    const located = locateAppSdk(this.options.sdkModule);
    if (located.path === undefined) return `forms: the form View needs the MCP Apps SDK, and ${located.problem}`;
    try {
      const html = withAppSdk(formViewHtml(), await loadAppSdk(located.path));
      return { uri: FORM_VIEW_URI, name: 'Form', description: 'Shows a form a tool asks the user (phantom-mcp)', html, label: 'apps({ forms })' };
    } catch (error) {
      return `forms: ${(error as Error).message}`;
    }
  }

  private withUi(descriptor: WireTool, binding: ToolUiBinding): WireTool {
    let listed = this.listed.get(descriptor);
    if (listed === undefined) {
      listed = listedWithUi(descriptor, binding, this.options.legacyResourceUriKey);
      this.listed.set(descriptor, listed);
    }
    return listed;
  }
}

/** Whether two Views would be served alike. */
function sameView(a: AppView | undefined, b: AppView): boolean {
  return a !== undefined && a.html === b.html && a.name === b.name && a.description === b.description && JSON.stringify(a.ui) === JSON.stringify(b.ui);
}

/** A View as a resource: listed and read with the Apps MIME type, its `_meta.ui` on both. */
function viewResource(view: AppView): ExtensionResource {
  const meta = view.ui ? { ui: view.ui } : undefined;
  return {
    uri: view.uri,
    name: view.name,
    description: view.description,
    mimeType: APP_MIME_TYPE,
    _meta: meta,
    read: async () => ({ contents: [{ uri: view.uri, mimeType: APP_MIME_TYPE, text: view.html, ...(meta ? { _meta: meta } : {}) }] }),
  };
}

/**
 * The MCP Apps extension: tools get interactive Views with `@ToolUi`. Pass it in the server's
 * `extensions`.
 *
 * @example
 * new PhantomServer({ name: 'charts', version: '1.0.0', providers: [ChartTools], extensions: [apps()] });
 */
export function apps(options: AppsOptions = {}): AppsExtension {
  return new AppsExtension(options);
}
