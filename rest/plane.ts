import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Router } from 'express';
import type { Services } from '../services/runtime.js';
import { upgradeRequired, type Tool } from '../tools/define.js';
import { loopbackAddress } from '../core/addresses.js';
import { signInFirst } from '../core/errors.js';
import { resting } from '../services/identity/login-throttle.js';
import { outcomeOfStatus } from '../services/plane/metrics.js';
import { readiness } from '../services/plane/ready.js';
import { bearerOf, contextOf } from './credential.js';

/** A route's pattern as express matched it (the first of a list that fits the path's depth); unmatched otherwise. */
function routeOf(req: Request): string {
  const path: unknown = req.route?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  if (Array.isArray(path)) {
    const depth = req.path.split('/').length;
    const fit = (path as string[]).find((p) => p.split('/').length === depth) ?? (path as string[])[0];
    return `${req.baseUrl}${fit}`;
  }
  return '(unmatched)';
}

/**
 * Counts every request once it is answered (or its caller went away): by surface (the MCP endpoints or REST), method,
 * route pattern and status, with its time; a REST route that is a tool counts as a call of that tool too (MCP's tool
 * calls are counted where MCP calls them).
 */
export function watchRequests(s: Services, tools: readonly Tool[]): RequestHandler {
  const toolOf = new Map(tools.filter((t) => t.rest).map((t) => [`${t.rest!.method} ${t.rest!.path}`, t.name]));
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const route = routeOf(req);
      s.plane.request(route.startsWith('/mcp') ? 'mcp' : 'rest', req.method, route, res.statusCode, seconds);
      const tool = toolOf.get(`${req.method} ${route}`);
      if (tool) s.plane.toolCall(tool, 'rest', outcomeOfStatus(res.statusCode), seconds);
    });
    next();
  };
}

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * GET /metrics is for the house: a caller on this machine (loopback, as the client address reads behind
 * DECK_TRUST_PROXY), the DECK_METRICS_TOKEN bearer, or a house principal's session or key. Anyone else: 401 without a
 * credential, 403 naming the house tier with one; a credential that does not verify counts with the login throttle.
 */
async function metricsAdmitted(s: Services, req: Request): Promise<void> {
  const token = s.config.metricsToken;
  const bearer = bearerOf(req);
  if (token && bearer && sameSecret(bearer, token)) return;
  if (req.ip && loopbackAddress(req.ip)) return;
  const { ctx, refused, restingS } = await contextOf(s, req, true);
  if (restingS > 0) throw resting(restingS);
  if (refused || !ctx.principal) throw signInFirst();
  if (ctx.principal.tier !== 'house') throw upgradeRequired(s, 'metrics', 'house');
}

/**
 * The routes of the plane that are not tools: the metrics in the Prometheus text format, and a load balancer's probes;
 * on the app itself, as the REST routes are.
 */
export function planeRoutes(app: Router, s: Services, version: string): void {
  app.get('/metrics', async (req, res) => {
    await metricsAdmitted(s, req);
    const { type, text } = await s.plane.exposition();
    res.type(type).set('cache-control', 'no-store').send(text);
  });
  app.get('/health', (_req, res) => void res.set('cache-control', 'no-store').json({ ok: true, alive: true, version, uptime_s: Math.floor(process.uptime()) }));
  app.get('/ready', async (_req, res) => {
    const { ready, body } = await readiness(s);
    res.status(ready ? 200 : 503).set('cache-control', 'no-store').json(body);
  });
}
