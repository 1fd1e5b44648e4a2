import { METADATA_KEYS } from '../metadata/metadata-keys';
import { recordingDecorator, type MemberDecorator } from './member-decorator';
import type { ToolUiAudience, ToolUiCsp, ToolUiOptions, ToolUiPermissions } from '../metadata/tool-ui-options';

export type { ToolUiAudience, ToolUiCsp, ToolUiOptions, ToolUiPermissions };

/**
 * Gives a `@Tool` an interactive user interface (MCP Apps, `io.modelcontextprotocol/ui`): a View,
 * an HTML document the host renders in a sandboxed iframe with the tool's result. The `apps()`
 * extension serves it as a `ui://` resource and names it in the tool's `_meta.ui`; without that
 * extension in the server's `extensions`, the decorator does nothing. The tool's ordinary result
 * (its text content) stays what a host without Apps shows, and what the model reads.
 *
 * In the View, `<script data-mcp-apps-sdk></script>` is replaced with the app-side SDK of the
 * `@modelcontextprotocol/ext-apps` package (inlined; an optional peer dependency to install), which
 * module scripts after it find as `globalThis.McpApps` (`App`, `PostMessageTransport`, ...).
 *
 * @example
 * class Counter {
 *   @Tool({ description: 'Show a counter the user can increment' })
 *   @ToolUi({ file: join(__dirname, 'counter.html'), prefersBorder: true })
 *   show() { return { count: 0 }; }
 *
 *   @Tool({ description: 'Increment the counter' })
 *   @ToolUi({ resourceUri: 'ui://tools/show.html', visibility: ['app'] })
 *   increment(args: CountArgs) { return { count: args.count + 1 }; }
 * }
 * new PhantomServer({ name: 'counter', version: '1.0.0', providers: [Counter], extensions: [apps()] });
 */
export function ToolUi(options: ToolUiOptions): MemberDecorator {
  return recordingDecorator(METADATA_KEYS.toolUi, '@ToolUi', options);
}
