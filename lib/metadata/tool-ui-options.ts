/**
 * Where a tool's user interface may reach, as the MCP Apps `_meta.ui.csp` of its `ui://` resource:
 * origins (wildcard subdomains allowed, `https://*.example.com`) the host adds to the View's
 * Content-Security-Policy. Omitted, the host applies the specification's restrictive default (no
 * network at all, inline scripts and styles only): a View that loads nothing from elsewhere needs none.
 */
export interface ToolUiCsp {
  /** Origins the View may `fetch`, open WebSockets to (`connect-src`). */
  readonly connectDomains?: readonly string[];
  /** Origins of its scripts, styles, images, fonts and media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  readonly resourceDomains?: readonly string[];
  /** Origins of nested iframes (`frame-src`; none when omitted). */
  readonly frameDomains?: readonly string[];
  /** Origins allowed as the document's base URI (`base-uri`; its own origin when omitted). */
  readonly baseUriDomains?: readonly string[];
}

/** Browser features the View asks the host for (it may refuse); each present key asks for one. */
export interface ToolUiPermissions {
  readonly camera?: Record<string, never>;
  readonly microphone?: Record<string, never>;
  readonly geolocation?: Record<string, never>;
  readonly clipboardWrite?: Record<string, never>;
}

/** Who may call a tool with a user interface: the model (the agent), the app (its View), or both. */
export type ToolUiAudience = 'model' | 'app';

/**
 * Options of `@ToolUi`, kept exactly as written; the MCP Apps extension (`apps()`) checks them
 * when the server starts (every problem of every tool reported at once).
 *
 * A tool gives its View as `html` or a `file` (served as a `ui://` resource), or names the
 * `resourceUri` of a View another tool serves (an app-only backend of that View, typically).
 * `csp`, `permissions`, `domain` and `prefersBorder` describe the resource, so they go with
 * `html` or `file`. `@ToolUi({ forms: true })` alone shows the tool's `@Elicit` forms as an app.
 */
export interface ToolUiOptions {
  /** The View: one HTML5 document (inline everything it needs, or declare where it loads from in `csp`). */
  readonly html?: string;
  /**
   * The View, read from this file when the server starts (a path relative to the working
   * directory; prefer an absolute one, `join(__dirname, 'view.html')`).
   */
  readonly file?: string;
  /**
   * The `ui://` URI the View is served at. With `html` or `file`, default `ui://tools/<tool name>.html`;
   * without them, the View this tool renders with (served by another `@ToolUi`, or by a
   * `@Resource` with the MIME type `text/html;profile=mcp-app`).
   */
  readonly resourceUri?: string;
  /** The resource's name in `resources/list` (default: the tool's name, then ` view`). */
  readonly name?: string;
  /** The resource's description in `resources/list`. */
  readonly description?: string;
  /** Origins the View may reach (see {@link ToolUiCsp}); omitted, the host's restrictive default. */
  readonly csp?: ToolUiCsp;
  /** Browser features the View asks for. */
  readonly permissions?: ToolUiPermissions;
  /** A dedicated origin for the View, in the host's own format (passed through as written). */
  readonly domain?: string;
  /** Whether the View would rather be drawn with a border and background by the host. */
  readonly prefersBorder?: boolean;
  /**
   * Who may call the tool: `['model', 'app']` by default; `['app']` for a tool only its View
   * calls (hidden from the model by the host, and from clients without the extension by the
   * server); `['model']` for one the View may not call.
   */
  readonly visibility?: readonly ToolUiAudience[];
  /**
   * Whether the tool's `@Elicit` forms may be shown as an app to a client that renders Views but
   * cannot elicit (`apps({ forms: true })` turns it on for every tool without a View of its own;
   * `false` here turns it off for this one). The call ends with a result that says the user is
   * asked, the form travels in its `_meta`, and the handler runs again with the answer once the
   * View submits it. Without `html`, `file` or `resourceUri` the tool renders with the
   * framework's form View (`ui://phantom-mcp/elicitation`); with its own View, that View gets
   * the pending form in the result's `_meta` and may render it. Not for a tool with an `output`
   * schema (clients reject its result without structured content): start-up fails.
   */
  readonly forms?: boolean;
}
