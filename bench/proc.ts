import { readFile } from 'node:fs/promises';

// What the kernel says about a process under test: measures that hold when other work shares the machine.

/** Resident memory in MiB (VmRSS). */
export async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

/** Milliseconds of CPU (user and system, every thread) the process has used so far. */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at the process state; utime and stime
  // are the 14th and 15th fields, in clock ticks of 1/100 s on Linux.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
