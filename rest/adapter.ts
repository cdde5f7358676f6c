import express, { type Request, type Response, type Router } from 'express';
import type { Services } from '../tools/context.js';
import { JsonBytes, type Tool } from '../tools/define.js';
import { DeckError, signInFirst } from '../tools/errors.js';
import { SESSION_COOKIE } from '../tools/identity/credentials.js';
import { contextOf } from './credential.js';

/** JSON bodies are read whatever their content type says: a body that does not parse is 400, an oversized one 413. */
const jsonBody = (limit = 1024 * 1024) => express.json({ type: () => true, limit, strict: false });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON parser reads an empty body as {}: a route that needs a body must tell the two apart. */
const bodyless = (req: Request): boolean => !req.headers['transfer-encoding'] && Number(req.headers['content-length'] ?? 0) === 0;

/** A tool's input from a request: path params, then query, then the JSON body (body wins, then path). */
function inputOf(tool: Tool, req: Request): Record<string, unknown> {
  const wantsBody = tool.rest!.method === 'POST' && tool.rest!.body !== 'none';
  if (wantsBody && (bodyless(req) || !isObject(req.body))) throw new DeckError(400, 'not_json', 'the body must be a JSON object');
  return { ...(req.query as Record<string, unknown>), ...(wantsBody ? (req.body as Record<string, unknown>) : {}), ...req.params };
}

/**
 * Moves a session the tool minted into the deck_session cookie, so the token never sits in a JSON body.
 * Secure when the request came over https, or when the deck's public address is https (behind a proxy).
 */
function applyCookie(tool: Tool, result: unknown, secure: boolean, res: Response): unknown {
  if (tool.rest!.cookie === 'clear') res.clearCookie(SESSION_COOKIE, { path: '/' });
  if (tool.rest!.cookie !== 'set' || !isObject(result) || !isObject(result.session)) return result;
  const { session, ...body } = result;
  const { token, expires_at } = session as { token: string; expires_at: number };
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: new Date(expires_at) });
  return body;
}

/** One express route per tool that has a REST binding; the route holds no logic of its own. */
export function restRoutes(s: Services, tools: readonly Tool[]): Router {
  const router = express.Router();
  for (const tool of tools) {
    const rest = tool.rest;
    if (!rest) continue;
    const handler = async (req: Request, res: Response) => {
      const { ctx, refused } = await contextOf(s, req);
      if (refused && tool.access !== 'none') throw signInFirst();
      const result = await tool.call(ctx, inputOf(tool, req));
      res.status(rest.status ?? 200);
      if (result instanceof JsonBytes) res.type('application/json').send(result.bytes);
      else res.json(applyCookie(tool, result, req.secure || s.urls.base.startsWith('https:'), res));
    };
    const method = rest.method === 'GET' ? 'get' : rest.method === 'POST' ? 'post' : 'delete';
    if (method === 'post') router.post(rest.path, jsonBody(rest.maxBody), handler);
    else router[method](rest.path, handler);
  }
  return router;
}
