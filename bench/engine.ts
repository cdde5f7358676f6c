import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { ROOT } from './child.js';
import type { BenchRow } from './indicators.js';

// The engine benchmarks, each in a process of its own: their timings do not share a heap or a JIT with the load
// generator or each other, and the peak memory they report is their own. `node --import tsx bench/engine.ts
// <name>` prints one benchmark's rows as JSON.

export const ENGINE_BENCHES = ['indicators', 'plate', 'forecast', 'stepper', 'stepper-busy', 'rehearsal', 'verdict', 'tool-tokens', 'replay'] as const;
export type EngineBench = (typeof ENGINE_BENCHES)[number];

/** Imported only in the process that runs it. */
const BENCHES: Record<EngineBench, () => Promise<BenchRow[]>> = {
  indicators: async () => (await import('./indicators.js')).benchIndicators(),
  plate: async () => (await import('./plate.js')).benchPlate(),
  forecast: async () => (await import('./forecast.js')).benchForecast(),
  stepper: async () => (await import('./stepper.js')).benchStepper(),
  'stepper-busy': async () => (await import('./stepper.js')).benchStepperBusy(),
  rehearsal: async () => (await import('./stepper.js')).benchRehearsal(),
  verdict: async () => (await import('./verdict.js')).benchVerdict(),
  'tool-tokens': async () => (await import('./tool-tokens.js')).benchToolTokens(),
  replay: async () => (await import('./replay.js')).benchReplay(),
};

/** Runs one engine benchmark in a fresh node process and answers its rows. */
export async function engineRows(name: EngineBench): Promise<BenchRow[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/engine.ts', name], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let said = '';
  child.stdout.on('data', (c: Buffer) => void (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (said = (said + c.toString()).slice(-2000)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the ${name} benchmark exited with ${code}: ${said}`);
  return JSON.parse(out) as BenchRow[];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const name = ENGINE_BENCHES.find((n) => n === process.argv[2]);
  if (!name) throw new Error(`no engine benchmark ${process.argv[2]}; one of ${ENGINE_BENCHES.join(', ')}`);
  process.stdout.write(JSON.stringify(await BENCHES[name]()));
}
