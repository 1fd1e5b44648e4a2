import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Machine } from './results';

/** What the figures were measured on: `nproc`, the CPU model from /proc/cpuinfo, Node. */
export function machine(): Machine {
  return {
    nproc: nproc(),
    cpu: cpuModel(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

function nproc(): number {
  try {
    return Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    return availableParallelism();
  }
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    return line?.split(':')[1]?.trim() || 'unknown CPU';
  } catch {
    return 'unknown CPU';
  }
}
