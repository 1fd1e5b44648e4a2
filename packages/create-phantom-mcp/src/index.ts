#!/usr/bin/env node
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from './options';
import { PhantomSourceError, preparePhantom, vendorPhantom } from './phantom-dependency';
import { claimMcpName, writeTemplate } from './project';

function main(argv: readonly string[]): number {
  const root = join(__dirname, '..');
  const ownVersion = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const options = parse(argv, ownVersion);
  if ('code' in options) {
    (options.code === 0 ? process.stdout : process.stderr).write(`${options.message}\n`);
    return options.code;
  }
  if (existsSync(options.directory) && readdirSync(options.directory).length > 0) {
    process.stderr.write(`${options.directory} is not empty: give a new or empty directory\n`);
    return 1;
  }
  let dependency;
  try {
    dependency = preparePhantom(options.phantom);
  } catch (error) {
    if (!(error instanceof PhantomSourceError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  const vendored = vendorPhantom(dependency, options.directory);
  const written = [...writeTemplate(join(root, 'template'), options.directory, { name: options.name, phantom: vendored.spec }), ...(vendored.written ? [vendored.written] : [])];
  if (options.mcpName) claimMcpName(options.directory, options.mcpName);
  const from = vendored.written ? `\nphantom-mcp: ${vendored.spec} (a packed phantom-mcp, no registry needed)\n` : '';
  process.stdout.write(`Created ${options.name} in ${options.directory}:\n${written.map((file) => `  ${file}`).join('\n')}\n${from}\nNext:\n  cd ${options.directory}\n  npm install\n  npm test      # builds with tsc, runs spec/ with mocha\n  npm start     # serves over stdio; npm start -- --http --port 3000 for HTTP\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
