/**
 * A toolset: the tools /mcp lists together (?toolsets=) and the OpenAPI tag of their routes, one typed value each, named
 * by every tool that belongs to it (its `toolset`), as github-mcp-server's toolset metadata. `default`: a bare /mcp
 * lists it; the others are listed on request, so a model's context pays for the whole deck only when it asks.
 */
export interface Toolset {
  readonly id: string;
  readonly default: boolean;
  readonly description: string;
}

/** Every toolset, in the order the OpenAPI document lists its tags. */
export const TOOLSETS = {
  identity: { id: 'identity', default: false, description: 'Onboarding and sessions: a key minted once, by the person, at POST /join, exchanged at POST /login for a 12-hour session; key rotation; a wallet proven by its own signature.' },
  plans: { id: 'plans', default: true, description: "The plan catalogue, the caller's account and grant, and the meter, which reports and never turns a caller away." },
  studio: { id: 'studio', default: true, description: "The studio gates over a trader's own rule: read into seven parts, forge, rehearse over the real tape, grade its fidelity; and the eight-state machine that walks them." },
  forge: { id: 'forge', default: true, description: 'The forge and the trial stepper: words or a script block into a watermarked state machine; its reading lanes and the onboarded register.' },
  tape: { id: 'tape', default: true, description: 'Real candles per market and timeframe, with what was measured; past windows are sealed.' },
  forecast: { id: 'forecast', default: true, description: 'The forecast envelope (magnitude, never direction) and its measured calibration.' },
  marks: { id: 'marks', default: true, description: 'Levels and zones a trader placed by hand.' },
  plates: { id: 'plates', default: false, description: 'Sealed chart plates, content addressed; they name no one.' },
  skills: { id: 'skills', default: true, description: 'The skill bank: how to drive the studio, step by step, with the real tool names.' },
  series: { id: 'series', default: false, description: 'Standing hire: a series of epoch jobs under one mandate over the coordination layer: quote, open, read, open the next epoch, revoke.' },
  book: { id: 'book', default: false, description: "The deck's own book: orders and cancels on its paper venue, which fills from the tape, the caller's caps, read-only history of orders, fills and positions, and the copy seller's models, records and follow quotes." },
  agent: { id: 'agent', default: false, description: "The agent rail: models an operator registers with a decide() endpoint of their own, run over a past window (replay) or forward on the live tape." },
  typed: { id: 'typed', default: false, description: 'The typed-decision lane: the typed-decision.v1 contract of a decide() answer, and one decision posted for a model.' },
  records: { id: 'records', default: false, description: "The deck's records, read-only: your history with the ledger entry proving each act, the registry, the ladder, the concluded lab (digests only) and the roadmap." },
  plane: { id: 'plane', default: false, description: "The observability plane: metrics (Prometheus), a load balancer's probes, and the hash-chained ledgers with their heads and a verify walk." },
  chat: { id: 'chat', default: false, description: "The chat lane: a model's words, labelled as such, through a fair queue; never written into a ledger." },
  oauth: { id: 'oauth', default: false, description: "The OAuth door's consent steps, which the onboarding page drives: read a pending authorization request, allow or deny it." },
} as const satisfies Record<string, Toolset>;
