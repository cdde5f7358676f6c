import type { Config } from '../config/env.js';
import type { IdentityDoor } from './identity/door.js';
import { EmbeddedDoor } from './identity/embedded.js';
import { HttpDoor } from './identity/http-door.js';

/** Every outside party the deck talks to. Unconfigured ones are absent; their routes answer 503. */
export interface Upstreams {
  door: IdentityDoor;
}

export async function openUpstreams(config: Config, clock: () => number): Promise<Upstreams> {
  const door = config.door
    ? new HttpDoor(config.door.url, config.door.token)
    : await EmbeddedDoor.open(config.dataDir, config.keyPrefix, clock);
  return { door };
}
