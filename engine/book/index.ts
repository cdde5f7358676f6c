/**
 * The book: orders, the paper venue's fill rules, positions as first-in-first-out lots, paired closes and the
 * figures of a record, caps, the typed decision and following a model. Pure: the venue and the store do the I/O.
 */
export { breaches, CapsSchema, exposureOf, HOUSE_LIMITS, HOUSE_MAX_NOTIONAL_USD, limitsFor, LimitsSchema, within, type CapBreach, type CapName, type Caps, type Exposure, type Limits } from './caps.js';
export { CONTRACTS, isOnStep, isOnTick, notionalOf, onStep, onTick, stepDown } from './contracts.js';
export { isConflict, orderOfDecision, TYPED_DECISION_VERSION, TypedDecisionSchema, type DecisionConflict, type TypedDecision } from './decision.js';
export { bookCosts, stepBar, type Bar, type BarOutcome, type BookCosts, type MarketBook } from './fill-rules.js';
export { followQuote, FollowQuoteSchema, type Cut, type FollowBasis, type FollowQuote, type FollowRow } from './follow.js';
export { dirOf, FILL_WHY, ORDER_TYPES, sideOf, SIDES, type Fill, type FillWhy, type OrderSpec, type OrderType, type Side, type WorkingOrder } from './order.js';
export { applyFill, averageEntry, flatPosition, PairedTradeSchema, type Lot, type PairedTrade, type Position } from './position.js';
export { pairedCloses, recordOf, recordStats, RecordStatsSchema, type RecordStats } from './record.js';
