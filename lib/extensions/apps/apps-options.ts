/** Options of {@link apps}: every one has a default. */
export interface AppsOptions {
  /**
   * Whether a UI tool's `_meta` also carries the flat `ui/resourceUri` key, deprecated by the
   * specification but still read by hosts older than `_meta.ui` (the official server helper
   * writes both). Default `true`.
   */
  readonly legacyResourceUriKey?: boolean;
  /**
   * Whether tools only a View may call (`visibility: ['app']`) are hidden from clients that did
   * not declare the extension: no host stands between those clients and the model to keep the
   * tools from it, so they are left out of `tools/list` and unknown to `tools/call`. Default `true`.
   */
  readonly hideAppOnlyTools?: boolean;
  /**
   * The file of the app-side SDK that replaces `<script data-mcp-apps-sdk></script>` in a View:
   * a self-contained ES module ending in one `export {...}` statement. Default: the
   * `app-with-deps` module of `@modelcontextprotocol/ext-apps` (an optional peer dependency),
   * found from the working directory's `node_modules` as `require` finds it.
   */
  readonly sdkModule?: string;
}

/** {@link AppsOptions} with their defaults. */
export interface ResolvedAppsOptions {
  readonly legacyResourceUriKey: boolean;
  readonly hideAppOnlyTools: boolean;
  readonly sdkModule: string | undefined;
}

/** The options with their defaults filled in. */
export function resolveAppsOptions(options: AppsOptions): ResolvedAppsOptions {
  return {
    legacyResourceUriKey: options.legacyResourceUriKey ?? true,
    hideAppOnlyTools: options.hideAppOnlyTools ?? true,
    sdkModule: options.sdkModule,
  };
}
