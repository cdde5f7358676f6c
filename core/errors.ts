import type { z } from 'zod';

/** One field that failed its rule, named the way the caller sent it (dotted path). */
export interface Problem {
  field: string;
  message: string;
}

/**
 * The one refusal type. Every adapter maps it to its own form (REST: status + body, MCP: JSON-RPC error
 * or an isError result); no adapter invents refusals of its own.
 */
export class DeckError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DeckError';
  }

  /** The body every refusal carries: { ok: false, error, message, ...details }. */
  body(): Record<string, unknown> {
    return { ok: false, error: this.code, message: this.message, ...this.details };
  }
}

/**
 * How many problems a refusal lists: the first few, with how many there were in all (`problems_total`) when there
 * were more. A body may hold a thousand wrong fields; the answer names enough to act on, never all of them.
 */
export const PROBLEMS_SHOWN = 10;
/** How many unknown keys one problem names before it says how many more there were. */
const KEYS_NAMED = 5;

/** The first few of some problems (or messages), and the words for how many more there were. */
export function firstFew<T>(all: readonly T[]): { shown: T[]; more: string } {
  const shown = all.slice(0, PROBLEMS_SHOWN);
  return { shown, more: all.length > shown.length ? `; and ${(all.length - shown.length).toLocaleString('en-US')} more` : '' };
}

/** Unknown keys as a problem names them: the first few, quoted, and how many more. */
export const namedKeys = (keys: readonly string[]): string =>
  keys.slice(0, KEYS_NAMED).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}...` : k)).join(', ') +
  (keys.length > KEYS_NAMED ? ` and ${(keys.length - KEYS_NAMED).toLocaleString('en-US')} more` : '');

export const badInput = (problems: Problem[], message?: string, status = 422): DeckError => {
  const { shown, more } = firstFew(problems);
  return new DeckError(status, 'bad_input', message ?? `${shown.map((p) => `${p.field}: ${p.message}`).join('; ')}${more}`, {
    problems: shown,
    ...(more ? { problems_total: problems.length } : {}),
  });
};

export const problemsOf = (error: z.ZodError): Problem[] =>
  error.issues.map((i) => ({
    field: i.path.length ? i.path.join('.') : '(body)',
    // zod lists every unknown key in its message; a body may hold thousands.
    message: i.code === 'unrecognized_keys' && i.keys.length > KEYS_NAMED ? `Unrecognized keys: ${namedKeys(i.keys)}` : i.message,
  }));

/**
 * A failure inside the deck (a file that could not be written, a bug): what failed, and where, is for the operator's
 * log; the caller is told only that it failed.
 */
export const internalFailure = (): DeckError => new DeckError(500, 'internal', 'the deck failed inside; the failure is in its log');

/** How to present a credential, said wherever one is missing or refused. */
export const HOW_TO_SIGN_IN = 'send "Authorization: Bearer <your key or deck_session value>" (no key yet: join at /join), or sign in with POST /login';

/**
 * 401: no credential, or one that did not verify. A live session bound to an MCP endpoint (an OAuth token) is told where
 * it is bound ("/": every MCP endpoint), not only that it did not verify.
 */
export const signInFirst = (boundTo: string | null = null): DeckError =>
  new DeckError(
    401,
    'unauthorized',
    boundTo === null ? `sign in first: ${HOW_TO_SIGN_IN}` : `this session is bound to ${boundTo === '/' ? 'the MCP endpoints' : boundTo}, not the REST routes: ${HOW_TO_SIGN_IN}`,
  );

/** An upstream that is not configured: 503 with the variable that would configure it. */
export const notConfigured = (upstream: string, variable: string): DeckError =>
  new DeckError(503, 'upstream_not_configured', `${upstream} is not configured: set ${variable}`, { upstream });

export const unreachable = (upstream: string, why: string): DeckError =>
  new DeckError(503, 'upstream_unreachable', `${upstream} could not be reached: ${why}`, { upstream });

export const refusedBy = (upstream: string, answer: unknown): DeckError =>
  new DeckError(502, 'upstream_refused', `${upstream} refused the request`, { upstream, layer: answer });

/** An upstream the spec answers with 502 when it is silent (the venue, the forecast sidecar). */
export const didNotAnswer = (upstream: string, why: string): DeckError =>
  new DeckError(502, 'upstream_silent', `${upstream} did not answer: ${why}`, { upstream });

/**
 * A limit reached (429). Every one says when to come back: retry_after_s in the body, whole seconds and at least 1,
 * which REST repeats as the Retry-After header.
 */
export const limitReached = (code: string, message: string, retryAfterS: number, details: Record<string, unknown> = {}): DeckError =>
  new DeckError(429, code, message, { ...details, retry_after_s: Math.max(1, Math.ceil(retryAfterS)) });
