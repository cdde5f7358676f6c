import express, { type Request, type RequestHandler, type Response } from 'express';
import { DeckError } from '../core/errors.js';
import { JsonShape, type Excess, type JsonBounds } from '../core/json-bounds.js';
import { parseJsonBody } from '../core/json.js';
import { moving } from '../core/pool/own-memory.js';
import type { WorkPool } from '../core/pool/pool.js';
import { BodyBytes } from './body-bytes.js';

/**
 * Where a body of `from` bytes or more, holding at most `entries` keys and array items, is parsed instead of on the
 * event loop (the work pool): JSON.parse of a body of some megabytes (an image) holds the loop tens of milliseconds.
 * Only a body of few entries (mostly strings) gains: its value crosses back as a copy of its strings, where a value of
 * many small parts costs the loop about as much to take back as to parse. `parse` answers the value, or rejects as
 * JSON.parse does (a DeckError is the place's own refusal, such as a full queue, and is answered as it is).
 */
export interface BodyOffload {
  from: number;
  entries: number;
  parse: (bytes: Buffer, req: Request) => Promise<unknown>;
}

/** Bodies from this size on are parsed on the work pool: below it, JSON.parse takes about a millisecond. */
const PARSED_ON_POOL_FROM = 128 * 1024;
/** ... when they hold at most this many keys and items (an image's body holds one). */
const PARSED_ON_POOL_ENTRIES = 1_024;

/** Large bodies of few entries parsed on the work pool, each a turn of its client's address (no principal is known yet). */
export const parsedOnPool = (pool: WorkPool): BodyOffload => ({
  from: PARSED_ON_POOL_FROM,
  entries: PARSED_ON_POOL_ENTRIES,
  // A body gathered into a buffer of its own moves to the thread, not copied: nothing reads it after.
  parse: (bytes, req) => pool.run('parsing', bytes, { owner: `address ${req.ip ?? ''}`, ...moving(bytes) }),
});

/**
 * Runs `then` once the loop has read the input that arrived while it was held: in the check phase after a poll phase,
 * which one setImmediate from a poll callback (where a thread's answer is heard) does not reach, two do.
 */
const afterWaitingIo = (then: () => void): void => void setImmediate(() => setImmediate(then));

/**
 * A JSON body reader: express.json (body-parser) with `strict: false`, whose answers it keeps exactly (an empty body
 * reads as {}, a body that is not JSON fails as entity.parse.failed, an oversized one as entity.too.large, a charset
 * or content-encoding it does not read as 415), with the common case read directly: an identity-encoded body of a
 * stated length within the limit, typed JSON in UTF-8 or untyped. That case is most requests, and body-parser spends
 * on it about as much as on the rest of a small request (a charset parse, a decoder, a stream reader and its
 * listeners, per request); everything else goes to body-parser itself. test/json-body.test.ts holds the two side by
 * side. A content-type that is not a media type (`application/json; charset`) is refused first as
 * content-type.malformed (400), whoever would have read the body. Either way the text is held to the route's `bounds`
 * before it is parsed: a body beyond them fails as entity.too.complex (413) and nothing walks it. A large body the
 * direct reader takes is parsed where `offload` says, off the event loop.
 */
export function jsonBody(limit: number, bounds: JsonBounds, offload?: BodyOffload): RequestHandler {
  const full = express.json({
    type: () => true,
    limit,
    strict: false,
    // Called with the decoded body before body-parser parses it: what it throws is the reading's failure.
    verify: (_req, _res, buf) => {
      const excess = new JsonShape(bounds).read(buf);
      if (excess) throw tooComplex(excess.message, bounds);
    },
  });
  return (req, res, onward) => {
    // A refusal answered before the body's end lets the rest go only so far (bounded, whichever reader refused it).
    const next = (error?: unknown) => {
      if (error && !req.complete) letGoOf(req, res);
      onward(error);
    };
    const type = req.headers['content-type'];
    const utf8Json = type === undefined || UTF8_JSON.test(type);
    // A malformed type is the client's mistake, refused before any parser reads it (some throw on it without a status).
    if (!utf8Json && type && !wellFormedType(type)) {
      return next(failure(400, 'content-type.malformed', 'the content-type is not a media type'));
    }
    // A length stated past the limit is refused now; body-parser would read it all first, however long.
    if (statedOver(req, limit)) return next(failure(413, 'entity.too.large', 'request entity too large'));
    const length = utf8Json ? plainLength(req, limit) : null;
    if (length === null) return full(req, res, next);
    req.body = undefined;
    // A body the pool may parse is kept whole as it arrives, to move there as it is.
    const kept = new BodyBytes(length, offload?.from ?? Infinity);
    let received = 0;
    // Read as it arrives: once the body passes its bounds, the rest is counted and let go, never kept or decoded.
    const shape = new JsonShape(bounds);
    let excess: Excess | null = null;
    const done = (error: Error | null) => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('close', onClose);
      if (error) return next(error);
      if (excess) return next(tooComplex(excess.message, bounds));
      const bytes = kept.bytes();
      const notJson = () => failure(400, 'entity.parse.failed', 'the body is not JSON');
      if (offload && received >= offload.from && shape.entriesRead <= offload.entries) {
        offload.parse(bytes, req).then(
          // Taking a large value back held the loop: the route's own work (its schema, another job's input) waits for
          // the loop to read what arrived meanwhile, so the two are never one block.
          (value) =>
            afterWaitingIo(() => {
              req.body = value;
              next();
            }),
          (error: unknown) => next(error instanceof DeckError ? error : notJson()),
        );
        return;
      }
      try {
        req.body = parseJsonBody(bytes);
      } catch {
        return next(notJson());
      }
      next();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      excess = shape.read(chunk);
      if (!excess) return kept.add(chunk);
      // Past its bounds: refused now, not at the body's end.
      kept.drop();
      done(null);
    };
    const onEnd = () => done(received === length ? null : failure(400, 'request.size.invalid', 'the body does not match its content-length'));
    // Closed before its end: the client went away (aborted, or its connection failed).
    const onClose = () => done(failure(400, 'request.aborted', 'the request was aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  };
}

/** How long a refused body's client has, once its answer is out, to read it before its connection is dropped. */
const GRACE_MS = 2_000;

/**
 * A body refused before its end: the rest of it is never read. The answer closes the connection (Connection: close);
 * the body is marked as being read (else Node reads all of it, however long, once the answer is out) and reading
 * stops, so what the client still sends waits in the network's buffers and its sending stalls once they are full.
 * Node would drop the connection as soon as the answer is out, which, with bytes unread, is a reset that a client
 * still sending takes instead of the answer: it is dropped after a grace instead, in which a client that fits its
 * body into the buffers (as a small one does) reads its answer. So a bomb costs the deck its first bytes, never its
 * size or its shape.
 */
function letGoOf(req: Request, res: Response): void {
  res.setHeader('connection', 'close');
  req.read(0);
  req.pause();
  const socket = req.socket;
  socket.destroySoon = () => void setTimeout(() => socket.destroy(), GRACE_MS).unref();
}

/** Content types whose charset is UTF-8 or unstated (body-parser reads an unstated one as UTF-8). */
const UTF8_JSON = /^application\/json(?:\s*;\s*charset=utf-8)?$/i;

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t !#-\\[\\]-~\\x80-\\xff]|\\\\[\\t -~\\x80-\\xff])*"';
const TYPE = new RegExp(`^${TOKEN}/${TOKEN}`);
/** One `;` and what follows it up to the next: nothing, or a parameter. Sticky, so each match starts where told. */
const PARAMETER = new RegExp(`[\\t ]*;[\\t ]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?`, 'y');

/**
 * RFC 9110's media-type: type "/" subtype, then parameters each `name=value` (a token or a quoted string; an empty
 * slot between semicolons is allowed): `application/json; charset` and `; charset=` are not. Read a parameter at a
 * time, so the time it takes grows with the header's length, never faster.
 */
function wellFormedType(type: string): boolean {
  const head = TYPE.exec(type);
  if (!head) return false;
  let at = head[0].length;
  for (;;) {
    PARAMETER.lastIndex = at;
    if (!PARAMETER.test(type)) break;
    at = PARAMETER.lastIndex;
  }
  return /^[\t ]*$/.test(type.slice(at));
}

/**
 * Whether body-parser would refuse a body as entity.too.large from its stated length alone: identity-encoded (an
 * encoded one's limit is on what it decodes to), in a charset body-parser reads (none stated, or utf-*: another is
 * its 415 first), its content-length past the limit.
 */
function statedOver(req: Request, limit: number): boolean {
  const stated = req.headers['content-length'];
  if (stated === undefined || !/^\d{1,16}$/.test(stated) || Number(stated) <= limit) return false;
  const encoding = req.headers['content-encoding'];
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.headers['content-type'] ?? '')?.[1];
  return (encoding === undefined || encoding.toLowerCase() === 'identity') && (charset === undefined || charset.toLowerCase().startsWith('utf-'));
}

/**
 * The length of a body (typed JSON in UTF-8 or untyped) the direct reader takes: a request still being read,
 * identity-encoded, not chunked, with a content-length within the limit. null: body-parser reads it.
 */
function plainLength(req: Request, limit: number): number | null {
  // A request already over (its client gone) goes to body-parser, which lets it through unread.
  if (!req.socket?.readable || (req.complete && !req.readable)) return null;
  const h = req.headers;
  if (h['content-encoding'] !== undefined || h['transfer-encoding'] !== undefined) return null;
  const stated = h['content-length'];
  if (stated === undefined || !/^\d{1,10}$/.test(stated)) return null;
  const length = Number(stated);
  return length <= limit ? length : null;
}

/** A reading failure as body-parser's errors carry it: the status and the type the deck's refusals are chosen by. */
function failure(status: number, type: string, message: string, details: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { status, statusCode: status, type, expose: true, details });
}

/** A body beyond its route's bounds: 413, saying which bound and what they all are. */
const tooComplex = (why: string, bounds: JsonBounds): Error =>
  failure(413, 'entity.too.complex', `the body holds more than this route reads: ${why}`, { bounds: { ...bounds } });
