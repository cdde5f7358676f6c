import type { Config } from '../config/env.js';
import type { Store } from '../store/store.js';
import { openForecaster, type Forecaster } from './forecast/forecaster.js';
import type { IdentityDoor } from './identity/door.js';
import { EmbeddedDoor } from './identity/embedded.js';
import { HttpDoor } from './identity/http-door.js';
import { ModelReader } from './reader/model-reader.js';
import { Tape } from './tape/tape.js';
import { VenueTape } from './tape/venue.js';
import { PaperVenue } from './venue/paper.js';
import type { Venue } from './venue/venue.js';

/** Every outside party the deck talks to. Unconfigured ones are absent; their routes answer 503. */
export interface Upstreams {
  door: IdentityDoor;
  /** The venue's open tape (when configured) behind the archive of every bar once seen. */
  tape: Tape;
  /** The forecast sidecar, or the in-process forecaster by default; null when neither is configured. */
  forecaster: Forecaster | null;
  /** The model reader lane (an OpenAI-compatible chat-completions endpoint); null when not configured. */
  reader: ModelReader | null;
  /** Where the deck's book sends its orders: the embedded paper venue, which fills from the tape. */
  venue: Venue;
}

export async function openUpstreams(config: Config, store: Store, clock: () => number): Promise<Upstreams> {
  const door = config.door
    ? new HttpDoor(config.door.url, config.door.token, config.keyPrefix)
    : await EmbeddedDoor.open(config.dataDir, config.keyPrefix, clock);
  const tape = new Tape(store.archive, config.tapeUrl ? new VenueTape(config.tapeUrl) : null, clock);
  const reader = config.reader ? new ModelReader(config.reader) : null;
  return { door, tape, forecaster: openForecaster(config, tape), reader, venue: new PaperVenue(store.book, tape, clock) };
}
