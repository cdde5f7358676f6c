import type { AddressInfo } from 'node:net';
import { MovingClock } from '../fixtures/clock.js';
import { LAYER_KEY, LayerDouble, type JobsChain } from '../fixtures/layer.js';
import { signedIn, testDeck, type TestDeck } from './deck.js';
import { callAnswered } from './answers.js';

/** 2030-01-07T00:00:00Z: where the moving clock starts, so series times read the same in every run. */
export const T0 = Date.UTC(2030, 0, 7) / 1000;
export const HOUR = 3_600;

/** A quote body for the copy seller at the layer double's external venue: three epochs of an hour at 25 USDC. */
export const hireBody = (over: Record<string, unknown> = {}) => ({
  agent: { chainId: 8453, agentId: 42, seller: 'copy' },
  venue: 'acct-external',
  epochs: 3,
  epoch_s: HOUR,
  price_usdc: 25,
  caps: { markets: ['NQ', 'ES'], max_order_size: 2, max_notional: 50_000, max_position: 4 },
  cover: 500,
  ...over,
});

export type Principal = Awaited<ReturnType<typeof signedIn>>;

/** A deck and a layer double reading one clock the test moves, and a signed-in principal. */
export interface SeriesRig {
  clock: MovingClock;
  layer: LayerDouble;
  deck: TestDeck;
  /** Where the deck listens (its public address may be set elsewhere). */
  url: string;
  me: Principal;
  /** Opens a series (201 expected) from a quote body; answers the series. */
  open(body?: Record<string, unknown>, from?: number, who?: Principal): Promise<any>;
  epochs(id: string, who?: Principal): ReturnType<typeof callAnswered>;
  read(id: string, who?: Principal): ReturnType<typeof callAnswered>;
  revoke(id: string, why?: string, who?: Principal): ReturnType<typeof callAnswered>;
  stop(): Promise<void>;
}

/** `jobs`: the chain and contract the layer's plans call (a contract deployed on a local chain), else the double's own. */
export async function seriesRig(env: Record<string, string> = {}, jobs?: JobsChain): Promise<SeriesRig> {
  const clock = new MovingClock(T0 * 1000);
  const layer = await new LayerDouble(clock.now, jobs).start();
  const deck = await testDeck({ DECK_COORD_URL: layer.url, DECK_COORD_KEY: LAYER_KEY, ...env }, clock.now);
  const url = `http://127.0.0.1:${(deck.server.address() as AddressInfo).port}`;
  const me = await signedIn(url, 'hirer');
  const rig: SeriesRig = {
    clock,
    layer,
    deck,
    url,
    me,
    async open(body = hireBody(), from, who = me) {
      const res = await callAnswered(`${url}/v1/series`, { body: { quote: body, ...(from !== undefined ? { from } : {}) }, headers: who.bearer });
      if (res.status !== 201) throw new Error(`POST /v1/series answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.series;
    },
    epochs: (id, who = me) => callAnswered(`${url}/v1/series/${id}/epochs`, { method: 'POST', headers: who.bearer }),
    read: (id, who = me) => callAnswered(`${url}/v1/series/${id}`, { headers: who.bearer }),
    revoke: (id, why = 'no longer needed', who = me) => callAnswered(`${url}/v1/series/${id}`, { body: { revoke: true, why }, headers: who.bearer }),
    async stop() {
      await deck.stop();
      await layer.close();
    },
  };
  return rig;
}
