import type { BarRow } from '../engine/bars.js';
import type { Config } from '../config/env.js';
import type { Logger } from '../config/logger.js';
import type { WorkAsk, WorkPool } from '../core/pool/pool.js';
import type { Principal } from '../core/principal.js';
import type { ModelRecord } from '../store/models.js';
import type { RunInit, RunRecord } from '../store/runs.js';
import type { Store } from '../store/store.js';
import type { Upstreams } from '../upstream/upstreams.js';
import type { SettleResponse } from '../upstream/x402/wire.js';
import type { DeckError } from '../core/errors.js';
import type { Guards } from './guards.js';
import type { Authorizations } from './oauth/authorizations.js';
import type { ProtectedResource } from './oauth/resources.js';
import type { Offer } from './offer.js';
import type { Surface, ToolOutcome } from './plane/metrics.js';

/** Who is on the other end of this call, as far as the transport can tell. */
export interface Caller {
  /** The client address (never stored in clear: salted and hashed where it is kept). */
  address: string;
  /** True when the caller reached the deck over https (cookies are then Secure). */
  secure: boolean;
}

/** What every part of the deck reads: its configuration, addresses, store, upstreams, clock and log. */
export interface Essentials {
  config: Config;
  /** The base URL people and agents reach the deck at, and the join page's address. */
  urls: { base: string; join: string };
  store: Store;
  upstreams: Upstreams;
  clock: () => number;
  log: Logger;
}

/*
 * The ports: what a call may ask of each runtime piece the deck builds once at start (services/runtime.ts names the
 * pieces themselves). A tool sees these and nothing more of them, so a test can hand in its own.
 */

/** The agent rail, where models run: start a run, stop one, read one. */
export interface RailPort {
  view(principal: string, id: string): RunRecord | null;
  start(ctx: SessionCtx, model: ModelRecord, init: RunInit, bars: readonly BarRow[] | null): Promise<RunRecord>;
  stop(principal: string, id: string): Promise<RunRecord | null>;
}

/** The chat lane's fair queue: a lane per principal, served in turn under one bound; a turn is given back once done. */
export interface QueuePort {
  turn(principalId: string): Promise<() => void>;
}

/** The OAuth door: its issuer, the resources it issues tokens for, and the requests waiting for consent. */
export interface DoorPort {
  readonly issuer: string;
  readonly resources: readonly ProtectedResource[];
  readonly authorizations: Authorizations;
}

/** The login throttle: how long an address rests after refused keys, counted and cleared per address. */
export interface ThrottlePort {
  restingFor(client: string, now: number): number;
  refused(client: string, now: number): Promise<void>;
  cleared(client: string): Promise<void>;
}

/** The observability plane, as far as a call reports to it: each tool call's outcome and time. */
export interface PlanePort {
  toolCall(tool: string, surface: Surface, outcome: ToolOutcome, seconds: number): void;
}

/** What a call may ask of the deck: its essentials and the ports of what it runs. */
export interface Reach extends Essentials {
  guards: Guards;
  chatQueue: QueuePort;
  /** CPU-heavy work off the event loop, fairly per principal, bounded. */
  pool: WorkPool;
  plane: PlanePort;
  login: ThrottlePort;
  offer: Offer;
  oauth: DoorPort;
  rail: RailPort;
}

/** Everything a tool touches comes through here, so tests can hand in fixtures. */
export interface Ctx extends Reach {
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
  /** Settles it; `bars` is what the call will serve, what a price by bars charges for (null for a price a call). */
  settle(ctx: SessionCtx, bars: number | null): Promise<void>;
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
