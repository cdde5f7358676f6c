import type { Request, Response } from 'express';

/**
 * A JSON answer with the very headers res.json writes (names, case and order) and the status already set: express's
 * res.send looks up the content type, parses and formats its charset and asks whether the request is fresh on every
 * call, to arrive at the same two headers. A conditional request (If-None-Match, If-Modified-Since) is left to
 * res.send, which answers it as express always has.
 */
export function sendJson(req: Request, res: Response, json: string | Buffer): void {
  if (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) {
    res.type('application/json').send(json);
    return;
  }
  // A string goes as it is: Node writes it after the headers in one piece, where a Buffer made of it here would be one
  // more copy.
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', typeof json === 'string' ? Buffer.byteLength(json) : json.length);
  res.end(json);
}
