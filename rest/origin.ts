import type { Request } from 'express';
import type { Services } from '../services/runtime.js';

/** The deck's own browser origin: the one its join page is served from. */
export const ownOrigin = (s: Services): string => new URL(s.urls.base).origin;

/** Whether a browser Origin is on `allowed`; a call with no Origin is not from a browser page, so it passes. */
export const originAllowed = (origin: string | undefined, allowed: readonly string[]): boolean => !origin || allowed.includes(origin);

/**
 * The page a browser request came from: its Origin, or when a browser left that out, the origin of its Referer
 * (a Referer that does not parse reads as the opaque origin "null", which no allowlist holds).
 */
export function pageOrigin(req: Request): string | undefined {
  if (req.headers.origin) return req.headers.origin;
  const referer = req.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
