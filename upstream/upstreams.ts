import type { Config } from '../config/env.js';
import type { Chain } from '../config/files.js';
import type { Store } from '../store/store.js';
import { Chains } from './chain/chains.js';
import { CoordLayer } from './coord/layer.js';
import type { Logger } from '../config/logger.js';
import { ChatLane } from './chat/lane.js';
import type { WorkPool } from '../core/pool/pool.js';
import { openForecaster, type Forecaster } from './forecast/forecaster.js';
import type { IdentityDoor } from './identity/door.js';
import { EmbeddedDoor } from './identity/embedded.js';
import { HttpDoor } from './identity/http-door.js';
import { Mailer } from './mail/mailer.js';
import { ModelReader } from './reader/model-reader.js';
import { NamedTargets } from './named-targets.js';
import { Tape } from './tape/tape.js';
import { CcxtTape } from './tape/ccxt.js';
import { VenueTape, type TapeVenue } from './tape/venue.js';
import { PaperVenue } from './venue/paper.js';
import type { Venue } from './venue/venue.js';
import { XDoor } from './x/x-door.js';

/** Every outside party the deck talks to. Unconfigured ones are absent; their routes answer 503. */
export interface Upstreams {
  door: IdentityDoor;
  /** The venue's open tape (when configured) behind the archive of every bar once seen. */
  tape: Tape;
  /** The forecast sidecar, or the in-process forecaster by default; null when neither is configured. */
  forecaster: Forecaster | null;
  /** The model reader lane (an OpenAI-compatible chat-completions endpoint); null when not configured. */
  reader: ModelReader | null;
  /** The plans file's chains, read over JSON-RPC (a chain without an RPC answers 503). */
  chains: Chains;
  /** The coordination layer: always present, answering 503 naming DECK_COORD_URL or DECK_COORD_KEY until both are set. */
  coord: CoordLayer;
  /** The chat lane (an OpenAI-compatible chat-completions endpoint); null when not configured. */
  chat: ChatLane | null;
  /** Where the deck's book sends its orders: the embedded paper venue, which fills from the tape. */
  venue: Venue;
  /** The email door's SMTP server; null when not configured (nothing is ever sent). */
  mail: Mailer | null;
  /** The X door's OAuth 2.0 endpoints; null when not configured. */
  x: XDoor | null;
  /** How the deck reaches a URL a person named (a model's decide(), an OAuth client's metadata document). */
  named: NamedTargets;
}

/** Runs work in the house's turn for joins (the join guard's), as a join itself runs. */
export type JoinTurn = <T>(work: () => Promise<T>) => Promise<T>;

export async function openUpstreams(config: Config, store: Store, clock: () => number, chains: readonly Chain[], log: Logger, joinTurn: JoinTurn, pool: WorkPool): Promise<Upstreams> {
  const door = config.door ? new HttpDoor(config.door.url, config.door.token, config.keyPrefix) : await embeddedDoor(config, store, clock, log, joinTurn);
  const tape = new Tape(store.archive, await venueTape(config, log), clock);
  const reader = config.reader ? new ModelReader(config.reader) : null;
  return {
    door,
    tape,
    forecaster: openForecaster(config, tape, pool),
    reader,
    chains: new Chains(chains, config.chainRpc),
    coord: new CoordLayer(config.coord),
    chat: config.chat ? new ChatLane(config.chat) : null,
    venue: new PaperVenue(store.book, tape, clock),
    mail: config.email ? new Mailer(config.email) : null,
    x: config.x ? new XDoor(config.x) : null,
    named: new NamedTargets(config.loopbackTargets),
  };
}

/** The venue's open tape over HTTP, or a crypto exchange through ccxt (loaded only then), or none. */
async function venueTape(config: Config, log: Logger): Promise<TapeVenue | null> {
  if (config.ccxt) return CcxtTape.open(config.ccxt.exchange, config.ccxt.apiUrl, log);
  return config.tapeUrl ? new VenueTape(config.tapeUrl) : null;
}

/** The embedded door, settled to the accounts: what a crash cut short of a join or a rotation is undone. */
async function embeddedDoor(config: Config, store: Store, clock: () => number, log: Logger, joinTurn: JoinTurn): Promise<EmbeddedDoor> {
  const door = await EmbeddedDoor.open(store.backend, config.keyPrefix, clock);
  // On a store decks share, another deck's join may be under way: settling waits for the house's turn for joins, so
  // a join cut short is told from one in flight.
  const settled = await joinTurn(() => store.backend.catchUp().then(() => door.settle((id) => store.accounts.byId(id)?.key_gen ?? null)));
  if (settled.forgotten.length || settled.restored.length) log.info('door_settled', { joins_undone: settled.forgotten, rotations_undone: settled.restored });
  return door;
}
