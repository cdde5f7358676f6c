import type { Config } from './env.js';

export interface Logger {
  debug(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

const LEVELS = { silent: 0, error: 1, info: 2, debug: 3 } as const;

/** The characters of keys and session tokens (base64url). */
const TOKEN_CHAR = '(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2})';

/** A literal that also matches with any of its characters percent-escaped, as it may sit in a request's path. */
const escapable = (literal: string): string =>
  [...literal].map((c) => `(?:${c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}|%${c.charCodeAt(0).toString(16).padStart(2, '0')})`).join('');

/** The password an SMTP URL carries, when it carries one. */
function smtpUrlPassword(smtpUrl: string): string | null {
  try {
    return decodeURIComponent(new URL(smtpUrl).password) || null;
  } catch {
    return null;
  }
}

/**
 * Removes secrets from a serialized log line, whatever field they sit in: anything shaped like a key (the key
 * prefix and what follows it), anything shaped like a session token, an OAuth refresh token or code, an email sign-in
 * link or a door's proof (ds_, dr_, dc_, dl_ or dp_ and 40 or more token characters), each also with percent-escaped
 * characters, and the house's configured secrets (door token, coordination, grader, reader and chat keys, the metrics
 * bearer, the SMTP password, the X client secret).
 */
export function redactor(config: Pick<Config, 'keyPrefix' | 'door' | 'coord' | 'grader' | 'reader' | 'chat' | 'metricsToken' | 'email' | 'x'>): (line: string) => string {
  const shapes = new RegExp(`(${escapable(config.keyPrefix)})${TOKEN_CHAR}+|(${['ds_', 'dr_', 'dc_', 'dl_', 'dp_'].map(escapable).join('|')})${TOKEN_CHAR}{40,}`, 'gi');
  const smtpPassword = config.email ? (config.email.password ?? smtpUrlPassword(config.email.smtpUrl)) : null;
  const secrets = [config.door?.token, config.coord?.key, config.grader?.key, config.reader?.key, config.chat?.key, config.metricsToken, smtpPassword, config.x?.clientSecret]
    .filter((x): x is string => typeof x === 'string' && x.length >= 8)
    .flatMap((x) => [x, encodeURIComponent(x), JSON.stringify(x).slice(1, -1)]);
  return (line) => {
    let out = line.replace(shapes, (_m, key: string | undefined, session: string | undefined) => `${key ?? session}[redacted]`);
    for (const secret of secrets) out = out.replaceAll(secret, '[redacted]');
    return out;
  };
}

/**
 * One JSON line per event on stderr. Callers pass named fields, never raw requests; and every line passes the
 * redactor, so a key or a session token that rode in on a path, a query or an error message is never written.
 */
export function makeLogger(config: Pick<Config, 'log' | 'keyPrefix' | 'door' | 'coord' | 'grader' | 'reader' | 'chat' | 'metricsToken' | 'email' | 'x'>): Logger {
  const at = LEVELS[config.log];
  const redact = redactor(config);
  const write = (lvl: string, event: string, fields?: Record<string, unknown>) =>
    process.stderr.write(`${redact(JSON.stringify({ t: new Date().toISOString(), lvl, event, ...fields }))}\n`);
  return {
    debug: (event, fields) => void (at >= LEVELS.debug && write('debug', event, fields)),
    info: (event, fields) => void (at >= LEVELS.info && write('info', event, fields)),
    error: (event, fields) => void (at >= LEVELS.error && write('error', event, fields)),
  };
}
