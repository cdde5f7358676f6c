import type { Request, Response } from 'express';
import { jsonOf } from '../core/json.js';

/** The bytes of a frozen value's JSON, encoded once (see jsonOf). */
const encoded = new WeakMap<object, Buffer>();

/** A value's JSON as it is sent: a frozen value's as bytes, encoded once and kept with it. */
export function answerOf(value: unknown): string | Buffer {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let bytes = encoded.get(value);
  if (bytes === undefined) encoded.set(value, (bytes = Buffer.from(jsonOf(value))));
  return bytes;
}

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
