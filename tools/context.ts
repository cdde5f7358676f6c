import type { Config } from '../config/env.js';
import type { Store } from '../store/store.js';
import type { Upstreams } from '../upstream/upstreams.js';
import type { Rail } from './agent/lib/rail.js';
import type { FairQueue } from '../core/fair-queue.js';
import type { WorkAsk, WorkPool } from '../core/pool/pool.js';
import type { Guards } from './guards.js';
import type { LoginThrottle } from './identity/lib/login-throttle.js';
import type { Logger } from '../config/logger.js';
import type { OAuthDoor } from './oauth/lib/door.js';
import type { Principal } from '../core/principal.js';
import type { Offer } from './offer.js';
import type { Plane } from './plane/lib/metrics.js';
import type { SettleResponse } from '../upstream/x402/wire.js';
import type { DeckError } from '../core/errors.js';

/** Who is on the other end of this call, as far as the transport can tell. */
export interface Caller {
  /** The client address (never stored in clear: salted and hashed where it is kept). */
  address: string;
  /** True when the caller reached the deck over https (cookies are then Secure). */
  secure: boolean;
}

/** What the deck is made of, built once at start and shared by every call. */
export interface Services {
  config: Config;
  /** The base URL people and agents reach the deck at, and the join page's address. */
  urls: { base: string; join: string };
  store: Store;
  upstreams: Upstreams;
  guards: Guards;
  /** The chat lane's fair queue: a lane per principal, served in turn under one bound. */
  chatQueue: FairQueue;
  /** CPU-heavy work off the event loop, fairly per principal, bounded. */
  pool: WorkPool;
  /** The observability plane: the deck's metrics and each upstream's last answer. */
  plane: Plane;
  login: LoginThrottle;
  offer: Offer;
  /** The OAuth door: another way in to the same principals, for MCP clients that sign in by OAuth 2.1. */
  oauth: OAuthDoor;
  /** The agent runs under way. */
  rail: Rail;
  clock: () => number;
  log: Logger;
}

/** Everything a tool touches comes through here, so tests can hand in fixtures. */
export interface Ctx extends Services {
  principal: Principal | null;
  /** The credential this call came with, when it verified (logout ends exactly this session). */
  credential: { kind: 'session' | 'key'; value: string } | null;
  caller: Caller;
  /**
   * Aborts once the request this call answers has ended (answered, or its client gone): what the deck asks upstream on
   * that request's behalf alone stops with it. Made on first use, so a call that asks nothing pays nothing for it.
   */
  ended(): AbortSignal;
  /**
   * Told how a long call goes, step by step, when its caller asked to hear it (an MCP task's status message, MCP
   * progress notifications); absent otherwise. What the call answers never depends on it.
   */
  progress?: (words: string) => void;
  /** The payment per call (x402) this call came with, admitted by its transport; null on every other call. */
  payment: PerCallPayment | null;
}

/**
 * A payment per call, checked and not yet settled: it settles once the call's input is valid and the tool foresees no
 * refusal, before the tool runs.
 */
export interface PerCallPayment {
  settle(ctx: SessionCtx): Promise<void>;
  /**
   * What a run that failed after the settlement answers: the refusal carrying the settlement (the payer was charged)
   * and its refund due, recorded on the meter with the transaction for the operator to refund.
   */
  unserved(ctx: SessionCtx, error: unknown): Promise<DeckError>;
  /** The facilitator's settlement once made: the answer carries it (PAYMENT-RESPONSE, _meta x402/payment-response). */
  settled: SettleResponse | null;
}

/** The context of a call a tool admits only signed in (access 'session'): the principal is there. */
export interface SessionCtx extends Ctx {
  principal: Principal;
}

export const signedIn = (ctx: Ctx): ctx is SessionCtx => ctx.principal !== null;

/** A call's turn on the work pool: its principal's, cancelled with the request. */
export const workAsk = (ctx: SessionCtx): WorkAsk => ({ owner: ctx.principal.id, signal: ctx.ended() });

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
