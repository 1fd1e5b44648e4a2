/**
 * The script a bundle has node load before the server (`node --require <it>`): it unsets the
 * declared environment variables whose setting the user left blank. A host fills
 * `${user_config.KEY}` in the manifest's `env` with the user's value, but leaves the placeholder
 * as it is for an optional setting left blank (Claude Desktop does, as the reference
 * `getMcpConfigForManifest` does; some hosts pass "" instead): the server would read the literal
 * text `${user_config.key}` as the value. Unset, the server sees what it sees without a bundle.
 * Plain CommonJS, no dependency, so it runs whatever the package's `type`.
 */
export function blankSettingsScript(names: readonly string[]): string {
  return `'use strict';
// Written by \`phantom-mcp bundle\`: loaded before the server (node --require), it unsets the
// variables whose setting was left blank, which a host passes as "\${user_config.KEY}" or "".
const BLANK = /^\\$\\{user_config\\.[^}]*\\}$/;
for (const name of ${JSON.stringify(names)}) {
  const value = process.env[name];
  if (value === '' || (value !== undefined && BLANK.test(value))) delete process.env[name];
}
`;
}
