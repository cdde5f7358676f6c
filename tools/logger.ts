import type { Config } from '../config/env.js';

export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

const LEVELS = { silent: 0, error: 1, info: 2, debug: 3 } as const;

/**
 * One JSON line per event on stderr. Callers pass named fields, never raw requests, so a key or a
 * session token cannot reach the log by accident.
 */
export function makeLogger(level: Config['log']): Logger {
  const at = LEVELS[level];
  const write = (lvl: string, event: string, fields?: Record<string, unknown>) =>
    process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), lvl, event, ...fields })}\n`);
  return {
    info: (event, fields) => void (at >= LEVELS.info && write('info', event, fields)),
    error: (event, fields) => void (at >= LEVELS.error && write('error', event, fields)),
  };
}
