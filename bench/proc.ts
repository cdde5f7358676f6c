import { readdir, readFile } from 'node:fs/promises';

// What the kernel says about a process under test: measures that hold when other work shares the machine.

/** A memory line of /proc/<pid>/status (VmRSS, VmHWM, ...) in MiB. */
async function statusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(status)?.[1];
  if (!kb) throw new Error(`no ${field} for process ${pid}`);
  return Number(kb) / 1024;
}

/** Resident memory in MiB (VmRSS). */
export const residentMiB = (pid: number): Promise<number> => statusMiB(pid, 'VmRSS');

/** The most resident memory the process has held so far, in MiB (VmHWM). */
export const peakResidentMiB = (pid: number): Promise<number> => statusMiB(pid, 'VmHWM');

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), from the process state on. */
async function statFields(pid: number | string): Promise<string[]> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime and stime (the 14th and 15th fields, in clock ticks of 1/100 s on Linux) in milliseconds. */
const cpuOf = (fields: string[]) => (Number(fields[11]) + Number(fields[12])) * 10;

/**
 * Milliseconds of CPU (user and system, every thread) the process has used so far: the scheduler's own count in
 * nanoseconds (/proc/<pid>/task/<tid>/schedstat), which needs no sampling; the clock-tick count of /proc/<pid>/stat
 * (1/100 s) where the kernel keeps no schedstat.
 */
export async function cpuMs(pid: number): Promise<number> {
  try {
    const tasks = await readdir(`/proc/${pid}/task`);
    // A thread that ends between the listing and the read has nothing left to count.
    const ns = await Promise.all(tasks.map((tid) => readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').then((s) => Number(s.split(' ')[0]), () => 0)));
    const total = ns.reduce((a, b) => a + b, 0);
    if (total > 0) return total / 1e6;
  } catch {
    // No task listing: fall back to the clock ticks below.
  }
  return cpuOf(await statFields(pid));
}

/**
 * Milliseconds of CPU the processes of a process group still running have used so far (npm, the shell it starts
 * and the node under it). What the group's processes that already exited spent is not counted.
 */
export async function groupCpuMs(pgid: number): Promise<number> {
  let total = 0;
  for (const pid of (await readdir('/proc')).filter((n) => /^\d+$/.test(n))) {
    const fields = await statFields(pid).catch(() => null);
    // The process group is the 5th field.
    if (fields && Number(fields[2]) === pgid) total += cpuOf(fields);
  }
  return total;
}
