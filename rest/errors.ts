import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DeckError, internalFailure } from '../tools/errors.js';
import type { Logger } from '../tools/logger.js';

/** Body-parser failures carry a type; these are the ones a caller caused. */
const bodyError = (err: unknown): DeckError | null => {
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') return new DeckError(400, 'not_json', 'the body is not JSON');
  if (type === 'entity.too.large') return new DeckError(413, 'too_large', 'the body is over the size cap');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new DeckError(415, 'unsupported_encoding', 'send UTF-8 JSON');
  return null;
};

/** The one REST error form: { ok: false, error, message, ...details } with the DeckError's status. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = err instanceof DeckError ? err : bodyError(err);
    if (known) {
      res.status(known.status).json(known.body());
      return;
    }
    log.error('route_failed', { method: req.method, path: req.path, error: (err as Error).message });
    res.status(500).json(internalFailure().body());
  };
}

export const notFound: RequestHandler = (req, res) => {
  res.status(404).json({ ok: false, error: 'not_found', message: `no route ${req.method} ${req.path}` });
};
