import { readFile } from 'node:fs/promises';

/** The package whose app-side SDK a View may ask for; an optional peer dependency. */
export const APP_SDK_PACKAGE = '@modelcontextprotocol/ext-apps';

/** Where a View asks for the SDK: `<script data-mcp-apps-sdk></script>` (attributes in any order, nothing inside). */
export const SDK_PLACEHOLDER = /<script\b[^>]*\bdata-mcp-apps-sdk\b[^>]*>\s*<\/script\s*>/i;

/** The global the inlined SDK's exports are gathered in. */
export const SDK_GLOBAL = 'McpApps';

/** The trailing `export{a as B,c}` statement of a bundled ES module. */
const EXPORT_LIST = /export\s*\{([^}]*)\}\s*;?\s*$/;
const BINDING = /^([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?$/;

/** Where the SDK module is: `module` when given, else resolved from the package (`undefined`, with why, when it cannot be). */
export function locateAppSdk(module: string | undefined): { readonly path?: string; readonly problem?: string } {
  if (module !== undefined) return { path: module };
  try {
    return { path: require.resolve(`${APP_SDK_PACKAGE}/app-with-deps`, { paths: [process.cwd(), __dirname] }) };
  } catch (error) {
    return { problem: `${APP_SDK_PACKAGE} cannot be found (${(error as Error).message.split('\n')[0]}): install it (npm install ${APP_SDK_PACKAGE}), or bundle the SDK into the View yourself` };
  }
}

/**
 * The SDK module's source as the body of an inline `<script type="module">`: its `export` list
 * rewritten into `globalThis.McpApps = {...}` (so the View's own module scripts, which run after
 * it in document order, find `App` there), and every `</script` escaped so it cannot end the element.
 */
export function inlineModule(source: string): string {
  const match = EXPORT_LIST.exec(source);
  if (!match) throw new Error('it does not end in an export {...} statement (a self-contained ES module such as app-with-deps.js)');
  const entries = match[1].split(',').map((part) => part.trim()).filter((part) => part.length > 0).map((part) => {
    const binding = BINDING.exec(part);
    if (!binding) throw new Error(`its export list holds "${part}", which is not a binding`);
    return `${binding[2] ?? binding[1]}:${binding[1]}`;
  });
  const body = `${source.slice(0, match.index)}globalThis.${SDK_GLOBAL}=Object.freeze({${entries.join(',')}});`;
  return body.replace(/<\/script/gi, '<\\/script');
}

/** Reads the SDK module at `path` and makes it inline; a failure says what is wrong with the file. */
export async function loadAppSdk(path: string): Promise<string> {
  let source: string;
  try {
    source = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`the MCP Apps SDK module ${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    return inlineModule(source);
  } catch (error) {
    throw new Error(`the MCP Apps SDK module ${path} cannot be inlined: ${(error as Error).message}`);
  }
}

/** `html` with every SDK placeholder replaced by the inlined SDK. */
export function withAppSdk(html: string, inlined: string): string {
  return html.replace(new RegExp(SDK_PLACEHOLDER.source, 'gi'), () => `<script type="module">${inlined}</script>`);
}

/** Whether `html` asks for the SDK. */
export function asksForAppSdk(html: string): boolean {
  return SDK_PLACEHOLDER.test(html);
}
