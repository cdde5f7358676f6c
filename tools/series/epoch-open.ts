import { z } from 'zod';
import { epochOpened, epochToOpen, openEpoch } from '../../engine/series/index.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { provenWallet } from '../../core/principal.js';
import { followSeries, settled } from '../../services/series/follow.js';
import { notWritten, nowS, SeriesId, seriesView, writeSeries } from '../../services/series/view.js';
import { EpochOpenAnswer } from '../../services/series/answers.js';

/** A failure after the layer opened the handshake: the handshake is kept for recovery, and the caller is told so. */
const afterHandshake = (error: unknown, handshakeId: string): unknown =>
  error instanceof DeckError
    ? new DeckError(error.status, error.code, `${error.message}; the layer opened handshake ${handshakeId}, which the deck keeps: the next read of the series adopts it`, {
        ...error.details,
        handshake_id: handshakeId,
      })
    : error;

export const epochOpen = defineTool({
  name: 'epoch_open',
  title: 'Open the next epoch',
  description:
    'Opens the epoch whose window holds the clock, from MANDATED or EPOCH_ENDED while the mandate is valid and no epoch is open (the series first follows the layer, as a read does): ' +
    'a handshake with the seller through the coordination layer (the layer calls the seller\'s /mcp/{seller} and records you as the opener), then a settle that answers the unsigned ERC-8183 createJob, ' +
    'checked to carry this epoch\'s paymentRef. The deck never signs: the plan is yours to sign and send. Answers 201 { ok, moved, epoch, paymentRef, handshake_id, unsigned, series, next }. ' +
    '409 when no epoch may open (the body says why: epoch_open, stopped, ended, mandate_expired, window_not_begun, or epoch_opening when another open of this series is under way); ' +
    '502 when the layer refused (its answer under layer) or its plan does not check out (plan_refused); 503 when the layer is not configured, or when the series could not be written after the layer opened the epoch (the handshake is kept and the next read adopts it).',
  input: z.object({ id: SeriesId }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  output: EpochOpenAnswer,
  access: 'session',
  guard: 'epoch_open',
  guardKey: (input) => input.id,
  toolset: TOOLSETS.series,
  rest: { method: 'POST', path: '/v1/series/:id/epochs', status: 201, body: 'none', errors: [404, 409, 502, 503] },
  async run(ctx, { id }) {
    const now = nowS(ctx);
    const followed = await followSeries(ctx, id);
    const r = followed.record;
    // Whether the open epoch ended is the layer's to say: when its handshake could not be read, no other epoch opens.
    if (followed.layer && !followed.hire && openEpoch(r)) throw followed.layer;
    const pick = epochToOpen(r, now);
    if (!pick.ok) throw new DeckError(409, pick.code, pick.message, { state: r.state, next: seriesView(ctx, r, now).next });
    const epoch = r.epochs[pick.epoch - 1]!;
    const { quote, terms } = r;
    const opened = await ctx.upstreams.coord.openHandshake({
      class: terms.class,
      seller: { chainId: quote.agent.chainId, agentId: quote.agent.agentId, endpoint: `${ctx.urls.base}/mcp/${quote.agent.seller}` },
      series_id: id,
      epoch: epoch.index,
      paymentRef: epoch.paymentRef,
      opener: { agent_id: ctx.principal.agent_id, wallet: provenWallet(ctx.principal) },
      window: epoch.window,
    });
    const hid = opened.handshake_id;
    const recovery = { series_id: id, principal_id: ctx.principal.id, epoch: epoch.index, paymentRef: epoch.paymentRef, handshake_id: hid, opened_at: opened.opened_at };
    await ctx.store.series.keepHandshake(recovery, now).catch((error: Error) => {
      throw notWritten(ctx, id, error, `the layer opened handshake ${hid} but the deck could not keep it: nothing is written`, { handshake_id: hid });
    });
    const plan = await settled(ctx, r, epoch.index, hid).catch((error: unknown) => {
      throw afterHandshake(error, hid);
    });
    const changed = await writeSeries(
      ctx,
      id,
      (current) => epochOpened(current, { epoch: epoch.index, handshake_id: hid, opened_at: opened.opened_at, ...plan, adopted: false }, now),
      `the series could not be written after the layer opened epoch ${epoch.index}: handshake ${hid} is kept, and the next read of the series adopts it`,
      { handshake_id: hid },
    );
    const record = changed.record;
    // The move that opened this epoch: this write's, or a read's that adopted the kept handshake meanwhile.
    const move = record.moves.find((m) => m.handshake_id === hid && (m.what === 'epoch_opened' || m.what === 'epoch_adopted'))!;
    const series = seriesView(ctx, record, now);
    return {
      ok: true,
      moved: { row: move.row, from: move.from, to: move.to },
      epoch: epoch.index,
      paymentRef: epoch.paymentRef,
      handshake_id: hid,
      unsigned: plan.unsigned,
      series,
      next: series.next,
    };
  },
});
