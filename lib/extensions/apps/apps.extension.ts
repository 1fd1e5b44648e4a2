import { DefinitionError } from '../../core/errors';
import type { JsonObject, WireTool } from '../../core/wire.types';
import type { Extension, ExtensionHost, ExtensionResource, ExtensionTool, Negotiation } from '../../router/extensions/extension';
import { APP_MIME_TYPE, APPS_EXTENSION_ID, rendersApps } from './app-ids';
import { compileViews, type AppView } from './app-views';
import { resolveAppsOptions, type AppsOptions, type ResolvedAppsOptions } from './apps-options';
import { bindingOf, listedWithUi, type ToolUiBinding } from './tool-ui-binding';
import { ToolUiRecords } from './tool-ui-records';

export { APP_MIME_TYPE, APPS_EXTENSION_ID } from './app-ids';

/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, specification 2026-01-26), built on the
 * public extension API: each `@ToolUi` View served as a `ui://` resource (`text/html;profile=mcp-app`,
 * its `_meta.ui` on the listing and on the read contents), each UI tool listed with `_meta.ui`,
 * tools only a View calls hidden from clients that did not declare the extension. Advertised only
 * while some tool has a UI. Made by {@link apps}.
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
  private views: readonly AppView[] = [];
  private uiTools = 0;

  constructor(options: AppsOptions = {}) {
    this.options = resolveAppsOptions(options);
  }

  /** `{}` while some tool has a View (in both eras, to every client); nothing otherwise. */
  settings(): JsonObject | undefined {
    return this.uiTools > 0 ? {} : undefined;
  }

  /** Reads and checks every `@ToolUi` (all problems in one `DefinitionError`) and serves the Views. */
  async setup(host: ExtensionHost): Promise<void> {
    const compiled = await compileViews(host.tools(), this.records, this.options.sdkModule);
    if (compiled.problems.length > 0) throw new DefinitionError(compiled.problems.map((problem) => `apps: ${problem}`));
    this.views = compiled.views;
    this.uiTools = compiled.uiTools;
    if (this.views.length > 0) host.serveResources(this.views.map(viewResource));
  }

  /**
   * A UI tool as this client sees it: with `_meta.ui` (and the flat `ui/resourceUri`), or hidden
   * when only its View may call it and the client cannot render Views (`hideAppOnlyTools`).
   */
  tool(tool: ExtensionTool, negotiation: Negotiation): WireTool | undefined {
    const options = this.records.get(tool.owner, tool.member);
    if (options === undefined) return tool.descriptor;
    const binding = bindingOf(tool.name, options);
    if (binding.appOnly && this.options.hideAppOnlyTools && !rendersApps(negotiation.clientCapabilities)) return undefined;
    return this.withUi(tool.descriptor, binding);
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
