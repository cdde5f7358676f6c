import { join } from 'node:path';
import type { Config } from '../../../config/env.js';
import { writeAtomic } from '../../../store/atomic-file.js';
import type { UpstreamCall } from '../../../upstream/watch.js';
import type { Services } from '../../context.js';

/** The file a readiness probe writes (synced and renamed, as every store write) to prove the data directory takes writes. */
const PROBE = '.ready';

/** Each upstream the configuration names, by its label, with the variable that configured it. */
function configured(c: Config): { upstream: string; variable: string }[] {
  return [
    c.door && { upstream: 'identity_door', variable: 'DECK_DOOR_URL' },
    c.tapeUrl && { upstream: 'venue_tape', variable: 'DECK_TAPE_URL' },
    c.coord && { upstream: 'coordination_layer', variable: 'DECK_COORD_URL' },
    c.grader && { upstream: 'grader', variable: 'DECK_GRADER_URL' },
    c.reader && { upstream: 'model_reader', variable: 'DECK_READER_URL' },
    c.forecastUrl && { upstream: 'forecast_sidecar', variable: 'DECK_FORECAST_URL' },
    c.chat && { upstream: 'chat_lane', variable: 'DECK_CHAT_URL' },
  ].filter((x): x is { upstream: string; variable: string } => Boolean(x));
}

const lastOf = (call: UpstreamCall | null) =>
  call && { outcome: call.outcome, status: call.status, at: new Date(call.at).toISOString(), ms: Math.round(call.seconds * 1000) };

/**
 * Whether the deck can serve, for a load balancer: ready when the data directory takes a write (a probe written
 * whole, synced and renamed, as the store writes); each configured upstream's last answer since start is reported
 * (null: not asked yet) but does not decide it, since every route that needs no upstream still serves.
 */
export async function readiness(s: Services): Promise<{ ready: boolean; body: Record<string, unknown> }> {
  let store: { writable: boolean; why?: string };
  try {
    await writeAtomic(join(s.config.dataDir, PROBE), String(s.clock()));
    store = { writable: true };
  } catch (error) {
    s.log.error('ready_store_failed', { error: (error as Error).message });
    store = { writable: false, why: 'the data directory did not take a write (the reason is in the log)' };
  }
  const upstreams = configured(s.config).map((u) => ({ ...u, last: lastOf(s.plane.lastAnswer(u.upstream)) }));
  return { ready: store.writable, body: { ok: store.writable, ready: store.writable, store, upstreams } };
}
