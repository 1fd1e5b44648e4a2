import { DefinitionError } from '../../core/errors';

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
  /**
   * Whether `@Elicit` forms are shown as an app, for every tool without a View of its own (a
   * tool opts in alone with `@ToolUi({ forms: true })`, out with `forms: false`): to a client
   * that renders Views (`text/html;profile=mcp-app`) but did not declare form elicitation,
   * `ctx.elicit` ends the call with a result saying the user is asked, the form View renders
   * the form, and the handler runs again with the validated answer when the user submits it.
   * Those tools are listed with the form View `ui://phantom-mcp/elicitation`. Default `false`.
   */
  readonly forms?: boolean;
  /** How long a form shown as an app may be answered (its signed token's life), in ms. Default 15 minutes. */
  readonly formTtlMs?: number;
  /**
   * Forms one call may ask through the app before it ends with an error result (each answer
   * travels in the token, so this bounds its size). Default 16.
   */
  readonly maxFormsPerCall?: number;
}

/** {@link AppsOptions} with their defaults. */
export interface ResolvedAppsOptions {
  readonly legacyResourceUriKey: boolean;
  readonly hideAppOnlyTools: boolean;
  readonly sdkModule: string | undefined;
  readonly forms: boolean;
  readonly formTtlMs: number;
  readonly maxFormsPerCall: number;
}

/** `formTtlMs`'s default: 15 minutes. */
export const DEFAULT_FORM_TTL_MS = 15 * 60 * 1000;
/** `maxFormsPerCall`'s default. */
export const DEFAULT_MAX_FORMS_PER_CALL = 16;

/** The options with their defaults filled in. */
export function resolveAppsOptions(options: AppsOptions): ResolvedAppsOptions {
  return {
    legacyResourceUriKey: options.legacyResourceUriKey ?? true,
    hideAppOnlyTools: options.hideAppOnlyTools ?? true,
    sdkModule: options.sdkModule,
    forms: options.forms ?? false,
    formTtlMs: positiveInteger('formTtlMs', options.formTtlMs, DEFAULT_FORM_TTL_MS),
    maxFormsPerCall: positiveInteger('maxFormsPerCall', options.maxFormsPerCall, DEFAULT_MAX_FORMS_PER_CALL),
  };
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new DefinitionError([`apps: ${name} must be a positive integer; got ${String(value)}`]);
  return value;
}
