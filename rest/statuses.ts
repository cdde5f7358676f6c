import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../config/logger.js';
import { DeckError, internalFailure } from '../core/errors.js';
import type { Services } from '../services/runtime.js';
import type { Tool } from '../tools/define.js';
import type { Locks } from '../services/plans/locks.js';
import type { IdentityDoor } from '../upstream/identity/door.js';

/** What a deck's configuration adds to the statuses of its routes: its tier locks, and which door verifies keys. */
export interface StatusFacts {
  locks: Locks;
  door: IdentityDoor['kind'];
  /** The tools paid per call (x402): without a key they answer 402 asking for a payment. */
  priced: ReadonlySet<string>;
}

export const statusFactsOf = (s: Pick<Services, 'offer' | 'upstreams'>): StatusFacts => ({
  locks: s.offer.locks,
  door: s.upstreams.door.kind,
  priced: new Set(s.offer.perCall?.requirements.keys() ?? []),
});

/**
 * The statuses a route that reads the caller's credential adds when keys are verified by a remote identity door
 * (DECK_DOOR_URL): a key presented while that door is down (503) or answers nonsense (502) cannot be read as refused.
 */
export const credentialStatuses = (facts: StatusFacts): number[] => (facts.door === 'http' ? [502, 503] : []);

/** The statuses a tool's route can refuse with (its OpenAPI responses): implied by its binding and access, plus the ones it names. */
export function routeStatuses(tool: Tool, facts: StatusFacts): number[] {
  const rest = tool.rest!;
  // What its run refuses with (input, guard, the route's own, 500), then what the transport adds.
  const set = new Set<number>(tool.statuses);
  // A path parameter can carry a bad percent-escape (400).
  if (rest.path.includes(':')) set.add(400);
  // A JSON body can fail to parse or decode (400), be over the body cap (413) or not be JSON at all (415).
  if (rest.method === 'POST' && rest.body !== 'none') for (const s of [400, 413, 415]) set.add(s);
  // A write on the cookie from a page of a foreign Origin is refused (403).
  if (rest.method !== 'GET') set.add(403);
  // A credential that does not verify is refused on every route that reads one, optional ones included, and counts
  // with the login throttle, which rests the address (429).
  if (tool.access !== 'none') for (const s of [401, 429]) set.add(s);
  // Every route reads whose a presented credential is, a route that needs none too (join, login and logout do).
  for (const s of credentialStatuses(facts)) set.add(s);
  // A tool the plans file locks on a tier answers upgrade_required (403) below it.
  if (facts.locks.has(tool.name)) set.add(403);
  // A tool paid per call answers 402 asking for the payment, or refusing one, naming why.
  if (facts.priced.has(tool.name)) set.add(402);
  // A failure inside the deck (not a refusal) is 500 on any route.
  set.add(500);
  return [...set].sort((a, b) => a - b);
}

type Handler = (req: Request, res: Response) => Promise<void>;

/**
 * A tool's route on a deck that checks its answers (DECK_CHECK_OUTPUT=1, as every test deck runs): a refusal whose
 * status the route's OpenAPI responses do not list is a drift from the document, as an answer off its schema is, so it
 * is answered 500 with a status_drift log line naming the tool, the status and the code. A client built from the
 * document then meets no status it was not told of, and a test that reaches one fails.
 */
export function heldToStatuses(tool: Tool, facts: StatusFacts, log: Logger, handler: Handler): RequestHandler {
  const listed = new Set(routeStatuses(tool, facts));
  return async (req, res) => {
    try {
      await handler(req, res);
    } catch (error) {
      if (!(error instanceof DeckError) || listed.has(error.status)) throw error;
      log.error('status_drift', { tool: tool.name, status: error.status, code: error.code });
      throw internalFailure();
    }
  };
}
