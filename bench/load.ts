import autocannon, { type Shot } from 'autocannon';
import type { Child } from './child.js';
import { cpuMs } from './proc.js';

export type { Shot };

/** One load run against one server: answers, seconds, latency and the CPU the server spent on it. */
export interface Run {
  answered: number;
  seconds: number;
  p50: number;
  p99: number;
  cpuMs: number;
}

/** Load from this process against a server in another: for a duration (seconds) or an amount of requests. */
export async function load(server: Child, shots: Shot[], run: { connections: number; seconds?: number; amount?: number }): Promise<Run> {
  const before = await cpuMs(server.pid);
  const r = await autocannon({
    url: server.url,
    connections: run.connections,
    requests: shots,
    ...(run.amount ? { amount: run.amount } : { duration: run.seconds ?? 10 }),
  });
  const spent = (await cpuMs(server.pid)) - before;
  if (r.errors || r.timeouts || r.non2xx) throw new Error(`${server.url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers`);
  return { answered: r['2xx'], seconds: r.duration, p50: r.latency.p50, p99: r.latency.p99, cpuMs: spent };
}

/** Several runs of one server and shot, taken together. */
export interface Measure {
  rps: number;
  /** Mean of the runs' medians. */
  p50: number;
  /** The worst run's p99. */
  p99: number;
  /** Server CPU per answered request, in microseconds. */
  cpuUs: number;
}

export function together(runs: Run[]): Measure {
  const answered = runs.reduce((a, r) => a + r.answered, 0);
  return {
    rps: answered / runs.reduce((a, r) => a + r.seconds, 0),
    p50: runs.reduce((a, r) => a + r.p50, 0) / runs.length,
    p99: Math.max(...runs.map((r) => r.p99)),
    cpuUs: (runs.reduce((a, r) => a + r.cpuMs, 0) * 1000) / answered,
  };
}
