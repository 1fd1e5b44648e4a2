// Runs the official MCP conformance suite against the fixture server (samples/conformance).
// Usage: node conformance/run-conformance.mjs [--package <dir under node_modules>] [--suite all]
//                                             [--expected-failures <yaml>] [--label <name>]
// It starts the compiled fixture over HTTP on a free loopback port, waits for it, runs the suite
// with an output folder under conformance/results/, stops the fixture, prints the summary and
// exits non-zero on any failed check. Build first (npm run build).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const pkg = option('--package', '@modelcontextprotocol/conformance');
const suite = option('--suite', 'all');
const label = option('--label', '2025-11-25');
const expectedFailures = option('--expected-failures', undefined);

const fixture = spawn(process.execPath, [join(root, 'dist/samples/conformance/main.js'), '--http', '--port', '0'], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
let banner = '';
fixture.stderr.setEncoding('utf8');
fixture.stderr.on('data', (chunk) => { banner += chunk; });
const deadline = Date.now() + 15_000;
while (!/serving MCP at (\S+)/.test(banner)) {
  if (fixture.exitCode !== null || Date.now() > deadline) {
    console.error(`conformance: the fixture did not start\n${banner}`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const url = /serving MCP at (\S+)/.exec(banner)[1];
const outputDir = join(root, 'conformance', 'results', label);
rmSync(outputDir, { recursive: true, force: true });
mkdirSync(outputDir, { recursive: true });

const cli = join(root, 'node_modules', pkg, 'dist', 'index.js');
const cliArgs = ['--import', join(root, 'conformance', 'glob-sync.hook.mjs'), cli, 'server', '--url', url, '--suite', suite, '--output-dir', outputDir];
if (expectedFailures) cliArgs.push('--expected-failures', join(root, expectedFailures));
console.log(`conformance (${label}): ${pkg} against ${url}`);
const run = spawn(process.execPath, cliArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
let output = '';
run.stdout.setEncoding('utf8');
run.stdout.on('data', (chunk) => { output += chunk; });
const [code] = await once(run, 'exit');
fixture.kill();

const summary = output.slice(output.indexOf('=== SUMMARY ==='));
console.log(summary.trim() || output.trim());
const total = /Total: (\d+) passed, (\d+) failed/.exec(output);
if (!total) {
  console.log(`conformance ${label}: the suite printed no summary`);
  process.exit(1);
}
// With a baseline, the CLI's exit code says whether every failure was expected (and none is stale).
const failed = code === 0 ? 0 : Number(total[2]);
const note = expectedFailures && code === 0 && total[2] !== '0' ? ` (${total[2]} failing checks are in ${expectedFailures})` : '';
console.log(`conformance-${label}: ${total[1]} passed, ${failed} failed${note}`);
process.exit(code === 0 ? 0 : 1);
