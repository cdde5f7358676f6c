import type { Config } from '../../config/env.js';
import type { UpstreamCall } from '../../upstream/watch.js';
import type { Services } from '../runtime.js';

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
    c.email && { upstream: 'mail_server', variable: 'DECK_SMTP_URL' },
    c.x && { upstream: 'x', variable: 'DECK_X_CLIENT_ID' },
  ].filter((x): x is { upstream: string; variable: string } => Boolean(x));
}

const lastOf = (call: UpstreamCall | null) =>
  call && { outcome: call.outcome, status: call.status, at: new Date(call.at).toISOString(), ms: Math.round(call.seconds * 1000) };

/**
 * Whether the deck can serve, for a load balancer: ready when the store takes a write (a probe written as the store
 * writes: to the data directory, or in a transaction of the database); each configured upstream's last answer since start is reported
 * (null: not asked yet) but does not decide it, since every route that needs no upstream still serves.
 */
export async function readiness(s: Services): Promise<{ ready: boolean; body: Record<string, unknown> }> {
  let store: { writable: boolean; why?: string };
  try {
    await s.store.backend.probeWrite(s.clock());
    store = { writable: true };
  } catch (error) {
    s.log.error('ready_store_failed', { error: (error as Error).message });
    store = { writable: false, why: `the ${s.store.backend.kind === 'postgres' ? 'database' : 'data directory'} did not take a write (the reason is in the log)` };
  }
  const upstreams = configured(s.config).map((u) => ({ ...u, last: lastOf(s.plane.lastAnswer(u.upstream)) }));
  return { ready: store.writable, body: { ok: store.writable, ready: store.writable, store, upstreams } };
}
