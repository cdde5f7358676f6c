import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { DeckError, internalFailure } from '../core/errors.js';
import type { Logger } from '../config/logger.js';
import { toHeader } from '../upstream/x402/wire.js';

const encodingOf = (req: Request): string => String(req.headers['content-encoding'] ?? 'identity').toLowerCase();

/**
 * A failure reading the body (express.json) that the caller caused, as the refusal it is: what was wrong, in the
 * deck's words, never the parser's (they may quote the body). null: not a body failure.
 */
export function bodyFailure(err: unknown, req: Request): DeckError | null {
  // Refused where the body was to be parsed (the work pool's queue full): answered as it is.
  if (err instanceof DeckError) return err;
  const e = err as { type?: unknown; status?: unknown };
  switch (e.type) {
    case 'entity.parse.failed':
      return new DeckError(400, 'not_json', 'the body is not JSON');
    case 'entity.too.large':
      return new DeckError(413, 'too_large', 'the body is over the size cap');
    case 'entity.too.complex':
      return new DeckError(413, 'too_large', (err as Error).message, (err as { details: Record<string, unknown> }).details);
    case 'encoding.unsupported':
      return new DeckError(415, 'unsupported_encoding', `content-encoding ${encodingOf(req)} is not read here: send identity, gzip, deflate or br`, {
        field: 'content-encoding',
      });
    case 'content-type.malformed':
      return new DeckError(400, 'bad_content_type', 'the content-type is not a media type: send application/json, any parameter as name=value (charset=utf-8)', {
        field: 'content-type',
      });
    case 'charset.unsupported':
      return new DeckError(415, 'unsupported_encoding', 'send the JSON as UTF-8', { field: 'content-type' });
  }
  const status = typeof e.status === 'number' && e.status >= 400 && e.status < 500 ? e.status : null;
  if (status === null) return null;
  // The decompressor's own failure (a body that is not the gzip, deflate or br its header claims) has no type.
  if (e.type === undefined && encodingOf(req) !== 'identity') {
    return new DeckError(400, 'bad_encoding', `the body does not decode as content-encoding ${encodingOf(req)}`, { field: 'content-encoding' });
  }
  // Any other reading failure the parser puts on the caller (a body cut short, a length that does not match).
  return typeof e.type === 'string' ? new DeckError(status, 'unreadable_body', 'the body could not be read as sent') : null;
}

/** Answers a refusal in the REST form; a limit reached (429) repeats its retry_after_s as the Retry-After header. */
export function sendRefusal(res: Response, error: DeckError): void {
  const retry = error.details.retry_after_s;
  if (error.status === 429 && typeof retry === 'number') res.set('retry-after', String(retry));
  // x402's HTTP transport: a payment asked for (or refused) carries the PaymentRequired in PAYMENT-REQUIRED, and a
  // settlement (one that failed, or one made for a call that then failed) its answer in PAYMENT-RESPONSE.
  if (error.status === 402 && error.details.x402) res.set('payment-required', toHeader(error.details.x402));
  if (error.details.settlement) res.set('payment-response', toHeader(error.details.settlement));
  res.status(error.status).json(error.body());
}

/**
 * The one REST error form: { ok: false, error, message, ...details } with the DeckError's status. Anything else is
 * the deck's own failure: a generic 500 (never a message, a path or a stack, which could quote the request or the
 * machine), with the details logged (the logger strips secrets).
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = err instanceof DeckError ? err : bodyFailure(err, req);
    if (known) return sendRefusal(res, known);
    const e = err as Error;
    log.error('route_failed', { method: req.method, path: req.path, error: e?.message, stack: e?.stack });
    // An answer already under way cannot become an error: cut it, so the client never takes it for whole.
    if (res.headersSent) return void res.destroy();
    res.status(500).json(internalFailure().body());
  };
}

/**
 * A path with a bad percent-escape (a % not followed by two hex digits) names nothing the deck serves: 400 before
 * any route tries to decode it into a parameter.
 */
export const pathDecodes: RequestHandler = (req, _res, next) => {
  // Only a path with a % in it has an escape to check (most have none).
  const path = req.path;
  if (!path.includes('%')) return next();
  try {
    decodeURIComponent(path);
  } catch {
    return next(new DeckError(400, 'bad_path', 'the path has a bad percent-escape: % must be followed by two hex digits', { field: 'path' }));
  }
  next();
};

export const notFound: RequestHandler = (req, res) => {
  res.status(404).json({ ok: false, error: 'not_found', message: `no route ${req.method} ${req.path}` });
};
