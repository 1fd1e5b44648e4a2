import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository, from dist/spec/support. */
export const REPOSITORY = resolve(__dirname, '..', '..', '..');

let packed: Promise<string> | undefined;

/**
 * This repository as npm would publish it (`npm pack` of the built tree), packed once per test
 * run: the path of the tarball. What a user installs, so what the CLI and generator specs test.
 */
export function packedPackage(): Promise<string> {
  packed ??= (async () => {
    const into = mkdtempSync(join(tmpdir(), 'phantom-pack-'));
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', into], { cwd: REPOSITORY, maxBuffer: 16 * 1024 * 1024 });
    return join(into, stdout.trim().split('\n').pop()!);
  })();
  return packed;
}

/** Runs `command` in `cwd`; its exit code and output, never a rejection. */
export async function runIn(cwd: string, command: string, args: readonly string[], timeoutMs = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, [...args], { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? String(error) };
  }
}
