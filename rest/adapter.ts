import type { Request, RequestHandler, Response, Router } from 'express';
import type { Services } from '../services/runtime.js';
import { EventStream, JsonBytes, WithImage, WithLinks, type Tool } from '../tools/define.js';
import { DeckError, signInFirst } from '../core/errors.js';
import { jsonOf } from '../core/json.js';
import { SESSION_COOKIE } from '../services/identity/credentials.js';
import { resting } from '../services/identity/login-throttle.js';
import { byCookie, contextOf } from './credential.js';
import { sendEvents } from './events.js';
import { sendJson } from './json-answer.js';
import { jsonBody, parsedOnPool } from './json-body.js';
import { originAllowed, ownOrigin, pageOrigin } from './origin.js';
import { textReader } from './query-input.js';
import { heldToStatuses, statusFactsOf } from './statuses.js';
import { paidAs, perCallFor } from '../services/pay/payment.js';
import { toHeader } from '../upstream/x402/wire.js';

/** The largest JSON body a REST route reads unless its binding says otherwise. */
const MAX_BODY = 1024 * 1024;

const JSON_TYPES = ['application/json', 'application/*+json'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON parser reads an empty body as {}: a route that needs a body must tell the two apart. */
const bodyless = (req: Request): boolean => !req.headers['transfer-encoding'] && Number(req.headers['content-length'] ?? 0) === 0;

/**
 * A JSON route reads only a JSON body: a form, text or anything else is 415 naming the content type it takes. A
 * browser sends text/plain and form bodies to another site without asking first; JSON it does not, so this also keeps
 * other sites' pages from writing here.
 */
const jsonOnly: RequestHandler = (req, _res, next) => {
  if (bodyless(req) || req.is(JSON_TYPES)) return next();
  next(new DeckError(415, 'unsupported_media_type', 'send the body as content-type: application/json', { field: 'content-type', expected: 'application/json' }));
};

/**
 * A write a browser makes on the deck_session cookie must come from a page of the deck's own origin or of an Origin on
 * DECK_ORIGINS (403 otherwise), as on the MCP endpoints. The Origin decides; when a browser leaves it out its Referer
 * does; a request with neither is not a page's (curl with a cookie jar), and a bearer is never sent by a browser on
 * its own, so neither is checked.
 */
function ownPagesOnly(s: Services): RequestHandler {
  const allowed = [ownOrigin(s), ...(s.config.origins ?? [])];
  return (req, _res, next) => {
    const origin = pageOrigin(req);
    if (!byCookie(req) || originAllowed(origin, allowed)) return next();
    next(new DeckError(403, 'origin_refused', `a page of ${origin!.slice(0, 200)} may not write with the deck's cookie`, { field: 'origin' }));
  };
}

/**
 * A tool's input from a request: query, then the JSON body, then path params (path wins, then body). Query and path
 * text is read as the numbers and yes/no the tool takes; a JSON body's values are taken as they are typed.
 */
function inputOf(tool: Tool, req: Request, fromText: ReturnType<typeof textReader>): Record<string, unknown> {
  const wantsBody = tool.rest!.method === 'POST' && tool.rest!.body !== 'none';
  if (wantsBody && (bodyless(req) || !isObject(req.body))) throw new DeckError(400, 'not_json', 'the body must be a JSON object');
  return {
    ...fromText(req.query as Record<string, unknown>),
    ...(wantsBody ? (req.body as Record<string, unknown>) : {}),
    ...fromText(req.params),
  };
}

/**
 * Moves a session the tool minted into the deck_session cookie, so the token never sits in a JSON body.
 * Secure when the request came over https, or when the deck's public address is https (behind a proxy).
 */
function applyCookie(cookie: 'set' | 'clear', result: unknown, secure: boolean, res: Response): unknown {
  if (cookie === 'clear') res.clearCookie(SESSION_COOKIE, { path: '/' });
  if (cookie !== 'set' || !isObject(result) || !isObject(result.session)) return result;
  const { session, ...body } = result;
  const { token, expires_at } = session as { token: string; expires_at: number };
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: new Date(expires_at) });
  return body;
}

/**
 * One express route per tool that has a REST binding, on the app itself (a router of their own would be one more
 * dispatch per request); the route holds no logic of its own.
 */
export function restRoutes(router: Router, s: Services, tools: readonly Tool[]): void {
  const ownPages = ownPagesOnly(s);
  const httpsBase = s.urls.base.startsWith('https:');
  const facts = statusFactsOf(s);
  for (const tool of tools) {
    const rest = tool.rest;
    if (!rest) continue;
    const guarded = tool.access !== 'none';
    const fromText = textReader(tool.input);
    const answer = async (req: Request, res: Response) => {
      const { ctx, refused, boundTo, restingS } = await contextOf(s, req, guarded);
      if (restingS > 0 || (refused && guarded)) {
        // A dead session in a browser (rotated, signed out elsewhere) is cleared, so it stops counting as a refusal.
        if (byCookie(req)) res.clearCookie(SESSION_COOKIE, { path: '/' });
        throw restingS > 0 ? resting(restingS) : signInFirst(boundTo);
      }
      // Without a key, a priced tool is paid per call (x402): a payment is admitted as its payer, or one is asked for.
      const perCall = perCallFor(ctx, tool);
      if (perCall) Object.assign(ctx, await paidAs(ctx, perCall, tool.name, `${s.urls.base}${req.originalUrl}`, req.headers['payment-signature']));
      const result = await tool.call(ctx, inputOf(tool, req, fromText));
      if (ctx.payment?.settled) res.set('payment-response', toHeader(ctx.payment.settled));
      if (result instanceof EventStream) return sendEvents(res, result, s.log);
      // The status as res.status would set it, without its checks on every answer: the binding's is a constant.
      res.statusCode = rest.status ?? 200;
      if (result instanceof JsonBytes) sendJson(req, res, result.bytes);
      // The picture is served by its own URL on REST, named in the body; the linked parts are in the body whole.
      else if (result instanceof WithImage || result instanceof WithLinks) sendJson(req, res, jsonOf(result.body));
      else sendJson(req, res, jsonOf(rest.cookie ? applyCookie(rest.cookie, result, req.secure || httpsBase, res) : result));
    };
    const handler = s.config.checkOutput ? heldToStatuses(tool, facts, s.log, answer) : answer;
    if (rest.method === 'GET') router.get(rest.path, handler);
    else if (rest.method === 'DELETE') router.delete(rest.path, ownPages, handler);
    else if (rest.body === 'none') router.post(rest.path, ownPages, handler);
    else router.post(rest.path, ownPages, jsonOnly, jsonBody(rest.maxBody ?? MAX_BODY, tool.bounds, parsedOnPool(s.pool)), handler);
  }
}
