import autocannon, { type Shot } from 'autocannon';
import type { Child } from './child.js';
import { isDisturbed, loadPerCore } from './machine.js';
import { cpuMs } from './proc.js';
import { spreadOf, type Spread } from './spread.js';

export type { Shot };

/** One load run against one server: answers, seconds, latency, the CPU the server spent on it and the machine's load. */
export interface Run {
  answered: number;
  seconds: number;
  p50: number;
  p99: number;
  cpuMs: number;
  /** The one-minute load average per core, the higher of its readings before and after the run. */
  load: number;
}

/** Load from this process against a server in another: for a duration (seconds) or an amount of requests. */
export async function load(server: Child, shots: Shot[], run: { connections: number; seconds?: number; amount?: number }): Promise<Run> {
  const loadBefore = loadPerCore();
  const before = await cpuMs(server.pid);
  const r = await autocannon({
    url: server.url,
    connections: run.connections,
    requests: shots,
    ...(run.amount ? { amount: run.amount } : { duration: run.seconds ?? 10 }),
  });
  const spent = (await cpuMs(server.pid)) - before;
  if (r.errors || r.timeouts || r.non2xx) throw new Error(`${server.url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers`);
  return { answered: r['2xx'], seconds: r.duration, p50: r.latency.p50, p99: r.latency.p99, cpuMs: spent, load: Math.max(loadBefore, loadPerCore()) };
}

/** Server CPU per answered request, in microseconds. */
export const cpuUsOf = (r: Run): number => (r.cpuMs * 1000) / r.answered;
export const rpsOf = (r: Run): number => r.answered / r.seconds;

/** Several rounds of one server and shot. */
export interface Measure {
  runs: Run[];
  rps: Spread;
  cpuUs: Spread;
  /** Mean of the rounds' medians. */
  p50: number;
  /** The worst round's p99. */
  p99: number;
}

export function together(runs: Run[]): Measure {
  return {
    runs,
    rps: spreadOf(runs.map(rpsOf)),
    cpuUs: spreadOf(runs.map(cpuUsOf)),
    p50: runs.reduce((a, r) => a + r.p50, 0) / runs.length,
    p99: Math.max(...runs.map((r) => r.p99)),
  };
}

/** How many of the rounds ran on a disturbed machine. */
export const disturbedRounds = (runs: readonly Run[]): number => runs.filter((r) => isDisturbed(r.load)).length;
