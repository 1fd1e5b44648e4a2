// Runs the official MCP conformance suite against the fixture server (samples/conformance).
// Usage: node conformance/run-conformance.mjs [--package <dir under node_modules>] [--suite all]
//                                             [--expected-failures <yaml>] [--label <name>]
//                                             [--must-run <check-id prefix>]
//                                             [--replicas <N>]
// It starts the compiled fixture over HTTP on a free loopback port, waits for it, runs the suite
// with an output folder under conformance/results/<label>/, stops the fixture, prints the summary
// and exits non-zero on any failed check. Build first (npm run build).
// Alone, the fixture keeps its sessions in memory (REDIS_URL is not passed on to it). With
// --replicas N, N copies of the fixture share the Redis of REDIS_URL under a key prefix of this
// run's own, behind the round-robin proxy of the cluster specs (no sticky sessions), and the suite
// talks to the proxy: a client's answer to an elicitation or a sampling request lands on another
// copy than the one waiting for it. Without REDIS_URL that run is skipped, saying so, and exits 0.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
const replicas = Number(option('--replicas', '1'));
// Checks whose id starts with this must all have run (none skipped): a fixture that stops declaring what they test fails the run.
const mustRun = option('--must-run', undefined);
if (!Number.isInteger(replicas) || replicas < 1) {
  console.error(`conformance ${label}: --replicas takes a whole number of copies, not ${option('--replicas')}`);
  process.exit(2);
}

const { REDIS_URL, REDIS_PREFIX, ...withoutRedis } = process.env;
if (replicas > 1 && !REDIS_URL) {
  console.log(`conformance-${label}: skipped, no Redis is set: ${replicas} replicas need REDIS_URL to share (.ci/run sets one)`);
  process.exit(0);
}

const fixtures = [];
process.once('exit', () => { for (const fixture of fixtures) fixture.kill(); });

/** Stops every copy of the fixture (SIGTERM: each closes gracefully) and waits for them to exit. */
async function stopFixtures() {
  await Promise.all(fixtures.map((fixture) => {
    if (fixture.exitCode !== null || fixture.signalCode !== null) return undefined;
    const exited = once(fixture, 'exit');
    fixture.kill();
    return exited;
  }));
}

/** Starts one copy of the fixture on a free port with `env`; resolves with its URL once it serves. */
async function startFixture(env) {
  const fixture = spawn(process.execPath, [join(root, 'dist/samples/conformance/main.js'), '--http', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'], env,
  });
  fixtures.push(fixture);
  let banner = '';
  fixture.stderr.setEncoding('utf8');
  fixture.stderr.on('data', (chunk) => { banner += chunk; });
  const deadline = Date.now() + 15_000;
  while (!/serving MCP at (\S+)/.test(banner)) {
    if (fixture.exitCode !== null || Date.now() > deadline) {
      console.error(`conformance ${label}: the fixture did not start\n${banner}`);
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return /serving MCP at (\S+)/.exec(banner)[1];
}

/** The URL the suite talks to: the one fixture's, or the proxy's in front of the replicas. */
async function serve() {
  if (replicas === 1) return { url: await startFixture(withoutRedis), stop: stopFixtures, acrossReplicas: () => '' };
  const prefix = `conformance-${label}-${randomBytes(6).toString('hex')}:`;
  const urls = await Promise.all(Array.from({ length: replicas }, () => startFixture({ ...withoutRedis, REDIS_URL, REDIS_PREFIX: prefix })));
  // The cluster specs' proxy, compiled with them (npm run build).
  const { RoundRobinProxy } = await import(pathToFileURL(join(root, 'dist/bench/servers/round-robin-proxy.js')).href);
  const proxy = new RoundRobinProxy(urls.map((url) => Number(new URL(url).port)));
  const stop = async () => {
    await proxy.stop();
    await stopFixtures();
    await forget(prefix);
  };
  return { url: await proxy.start(), stop, acrossReplicas: () => crossings(proxy.routed) };
}

/** Deletes what the replicas left in Redis under this run's prefix, once they are gone. */
async function forget(prefix) {
  const { default: Redis } = await import('ioredis');
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    for await (const keys of client.scanStream({ match: `${prefix}*`, count: 500 })) {
      if (keys.length > 0) await client.unlink(...keys);
    }
  } catch (error) {
    console.error(`conformance ${label}: could not delete the keys under ${prefix}: ${error.message}`);
  } finally {
    client.disconnect();
  }
}

/**
 * How many of the client's answers to the server's requests (elicitation, sampling) the proxy
 * sent to another replica than the one running the tools/call that asked, in the same session.
 */
function crossings(routed) {
  const caller = new Map();
  let answers = 0;
  let crossed = 0;
  for (const { rpc, session, upstream } of routed) {
    if (session === undefined) continue;
    if (rpc === 'tools/call') caller.set(session, upstream);
    if (rpc === 'response' && caller.has(session)) {
      answers += 1;
      if (caller.get(session) !== upstream) crossed += 1;
    }
  }
  return answers === 0 ? '' : `\n  across replicas: ${crossed} of ${answers} client answers to elicitation and sampling requests reached another replica than the call waiting for them`;
}

const { url, stop, acrossReplicas } = await serve();
const outputDir = join(root, 'conformance', 'results', label);
rmSync(outputDir, { recursive: true, force: true });
mkdirSync(outputDir, { recursive: true });

const cli = join(root, 'node_modules', pkg, 'dist', 'index.js');
const cliArgs = ['--import', join(root, 'conformance', 'glob-sync.hook.mjs'), cli, 'server', '--url', url, '--suite', suite, '--output-dir', outputDir];
if (expectedFailures) cliArgs.push('--expected-failures', join(root, expectedFailures));
const where = replicas === 1 ? url : `${url} (a round-robin proxy in front of ${replicas} replicas on one Redis)`;
console.log(`conformance (${label}): ${pkg} against ${where}`);
const run = spawn(process.execPath, cliArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
let output = '';
run.stdout.setEncoding('utf8');
run.stdout.on('data', (chunk) => { output += chunk; });
const [code] = await once(run, 'exit');
await stop();

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
const unrun = mustRun ? skippedChecks(mustRun) : undefined;
console.log(`conformance-${label}: ${total[1]} passed, ${failed} failed${note}${acrossReplicas()}${unrun ? `; ${unrun.ran} ${mustRun}* checks ran` : ''}`);
if (unrun && (unrun.ran === 0 || unrun.skipped.length > 0)) {
  console.log(`conformance-${label}: every ${mustRun}* check must run; ${unrun.ran === 0 ? 'none did' : `skipped: ${unrun.skipped.join(', ')}`}`);
  process.exit(1);
}
process.exit(code === 0 ? 0 : 1);

/** The checks of this run whose id starts with `prefix`: how many ran (not skipped), and which were skipped. */
function skippedChecks(prefix) {
  const checks = readdirSync(outputDir, { withFileTypes: true }).filter((entry) => entry.isDirectory())
    .flatMap((entry) => { try { return JSON.parse(readFileSync(join(outputDir, entry.name, 'checks.json'), 'utf8')); } catch { return []; } })
    .filter((check) => typeof check.id === 'string' && check.id.startsWith(prefix));
  return { ran: checks.filter((check) => check.status !== 'SKIPPED').length, skipped: [...new Set(checks.filter((check) => check.status === 'SKIPPED').map((check) => check.id))] };
}
