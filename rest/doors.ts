import { parse as parseCookies } from 'cookie';
import type { Request, Response, Router } from 'express';
import { DeckError } from '../core/errors.js';
import type { Services } from '../services/runtime.js';
import type { Proved } from '../services/doors/proved.js';
import { X_TTL_MS } from '../services/doors/secrets.js';
import { finishX, startX, X_CALLBACK_PATH } from '../services/doors/x.js';
import { SESSION_COOKIE } from '../services/identity/credentials.js';
import { contextOf } from './credential.js';

/** The browser's half of an X sign-in: the state it started, only for the X door's paths. */
const X_STATE_COOKIE = 'deck_x_state';
const X_PATH = '/auth/x';

/**
 * The X door's two browser steps, which answer redirects rather than JSON: GET /auth/x sends the person to X's
 * authorize URL (the state also set as an httpOnly cookie on /auth/x, so only this browser can finish), and
 * GET /auth/x/callback is where X sends them back. The callback always ends on the join page: signed in (the
 * deck_session cookie set, ?door=x), with a proof to join or link with (?door=x&proof=...), or with the refusal's
 * code (?door=x&door_error=...). What the steps do is services/doors/x.ts.
 */
export function doorRoutes(app: Router, s: Services): void {
  const httpsBase = s.urls.base.startsWith('https:');
  const secure = (req: Request) => req.secure || httpsBase;
  const toJoin = (res: Response, params: Record<string, string>) => {
    const at = new URL(s.urls.join);
    for (const [k, v] of Object.entries(params)) at.searchParams.set(k, v);
    res.set('cache-control', 'no-store').redirect(302, at.href);
  };

  app.get(X_PATH, async (req, res, next) => {
    try {
      const { ctx } = await contextOf(s, req, false);
      const { url, state } = await startX(ctx);
      res.cookie(X_STATE_COOKIE, state, { httpOnly: true, sameSite: 'lax', secure: secure(req), path: X_PATH, maxAge: X_TTL_MS });
      res.set('cache-control', 'no-store').redirect(302, url);
    } catch (error) {
      next(error);
    }
  });

  app.get(X_CALLBACK_PATH, async (req, res, next) => {
    const query = req.query as Record<string, unknown>;
    const text = (k: string) => (typeof query[k] === 'string' ? (query[k] as string) : undefined);
    res.clearCookie(X_STATE_COOKIE, { path: X_PATH });
    let done: Proved;
    try {
      const { ctx } = await contextOf(s, req, false);
      const header = req.headers.cookie;
      done = await finishX(ctx, { code: text('code'), state: text('state'), error: text('error'), browserState: header ? (parseCookies(header)[X_STATE_COOKIE] ?? null) : null });
    } catch (error) {
      if (!(error instanceof DeckError) || error.status === 500) return next(error);
      if (error.status === 429) res.set('retry-after', String(error.details.retry_after_s));
      return toJoin(res, { door: 'x', door_error: error.code });
    }
    if (done.session) {
      res.cookie(SESSION_COOKIE, done.session.token, { httpOnly: true, sameSite: 'lax', secure: secure(req), path: '/', expires: new Date(done.session.expires_at) });
      return toJoin(res, { door: 'x' });
    }
    toJoin(res, { door: 'x', proof: done.proof! });
  });
}
