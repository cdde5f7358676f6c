import type { FairQueue } from '../core/fair-queue.js';
import type { Principal } from '../core/principal.js';
import type { Rail } from './agent/rail.js';
import type { Caller, Ctx, Reach } from './context.js';
import type { LoginThrottle } from './identity/login-throttle.js';
import type { OAuthDoor } from './oauth/door.js';
import type { Plane } from './plane/metrics.js';

/**
 * What the deck is made of, built once at start and shared by every call: what a call reaches, with the pieces themselves
 * behind the ports (the transports read more of them than a tool may: the plane's exposition, the door's client cache).
 */
export interface Services extends Omit<Reach, 'chatQueue' | 'plane' | 'login' | 'oauth' | 'rail'> {
  /** The chat lane's fair queue: a lane per principal, served in turn under one bound. */
  chatQueue: FairQueue;
  /** The observability plane: the deck's metrics and each upstream's last answer. */
  plane: Plane;
  login: LoginThrottle;
  /** The OAuth door: another way in to the same principals, for MCP clients that sign in by OAuth 2.1. */
  oauth: OAuthDoor;
  /** The agent runs under way. */
  rail: Rail;
}

/**
 * A call's context: the deck's services and who is calling. Written out field by field: in the V8 of Node 20 an object
 * literal that starts by spreading another and adds fields after it (`{ ...s, principal }`) copies the descriptors
 * into a new shape every time (a few microseconds a call), where naming each field builds one shape once.
 */
export const callContext = (s: Services, principal: Principal | null, credential: Ctx['credential'], caller: Caller, ended: () => AbortSignal): Ctx => ({
  config: s.config,
  urls: s.urls,
  store: s.store,
  upstreams: s.upstreams,
  guards: s.guards,
  chatQueue: s.chatQueue,
  pool: s.pool,
  plane: s.plane,
  login: s.login,
  offer: s.offer,
  oauth: s.oauth,
  rail: s.rail,
  clock: s.clock,
  log: s.log,
  principal,
  credential,
  caller,
  ended,
  payment: null,
});
