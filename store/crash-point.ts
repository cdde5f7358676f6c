/**
 * A test hook, inert unless DECK_CRASH_AT is set. The crash tests set it to the name of a document or ledger the
 * store writes (accounts, door, marks, meter, ...): the process then kills itself with SIGKILL as soon as a write of
 * that name is on disk, before anyone is answered, so each step between two writes can be cut on purpose.
 */
const at = process.env.DECK_CRASH_AT;

export function crashPoint(name: string): void {
  if (name === at) process.kill(process.pid, 'SIGKILL');
}
