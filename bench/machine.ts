import { cpus, loadavg, release, totalmem } from 'node:os';

// The machine a figure was measured on and how busy it was: a figure from a busy machine is said to be one.

/** A round is disturbed when the machine's load average is above this per core: others' work then weighs on it. */
export const DISTURBED_PER_CORE = 1.5;

export const CORES = cpus().length;

/** The one-minute load average per core, now. */
export const loadPerCore = (): number => loadavg()[0]! / CORES;

export const isDisturbed = (perCore: number): boolean => perCore > DISTURBED_PER_CORE;

/** The processor, cores, memory, kernel and node, in one line. */
export const machineLine = (): string =>
  `${cpus()[0]?.model ?? 'unknown cpu'}, ${CORES} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; Linux ${release()}, Node ${process.version}`;

/** The load average (1, 5 and 15 minutes) and what it is per core. */
export function loadLine(): string {
  const [one, five, fifteen] = loadavg() as [number, number, number];
  return `load average ${one.toFixed(1)} / ${five.toFixed(1)} / ${fifteen.toFixed(1)} (1 / 5 / 15 min) on ${CORES} cores: ${(one / CORES).toFixed(2)} per core${isDisturbed(one / CORES) ? ', disturbed' : ''}`;
}
