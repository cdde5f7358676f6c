import { z } from 'zod';
import { SELLER_IDS } from '../../config/sellers.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { feedbackOf } from '../../services/series/view.js';
import { EpochsAnswer } from '../../services/records/answers.js';

export const epochs = defineTool({
  name: 'epochs',
  title: "The sellers' finished epochs",
  description:
    "Every epoch of standing hire the coordination layer ended with its verdict, house-wide, oldest first: the seller hired, the ERC-8004 agent the hire named, the job class, the epoch's paymentRef (as its job on chain carries it), window, end and verdict, " +
    'and the value and tags of the ERC-8004 feedback that verdict gives. No principal and no series id: a seller\'s record, not a hirer\'s. `seller` keeps one seller. Needs no key.',
  input: z.object({ seller: z.enum(SELLER_IDS as [string, ...string[]]).optional().describe('keep one seller') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: EpochsAnswer,
  access: 'none',
  toolset: TOOLSETS.records,
  rest: { method: 'GET', path: '/records/epochs' },
  async run(ctx, { seller }) {
    const ended = ctx.store.series
      .everySeries()
      .filter((r) => !seller || r.quote.agent.seller === seller)
      .flatMap((r) =>
        r.epochs.flatMap((e) => {
          if (e.state !== 'ended' || !e.verdict || e.ended_at === null) return [];
          const f = feedbackOf(ctx, r, e, null)?.args;
          return [
            {
              seller: r.quote.agent.seller,
              agent: { chainId: r.quote.agent.chainId, agentId: r.quote.agent.agentId },
              class: r.terms.class,
              index: e.index,
              paymentRef: e.paymentRef,
              window: e.window,
              ended_at: e.ended_at,
              // The judge's words are about the hirer's own fills: the record keeps which checks passed.
              verdict: { pass: e.verdict.pass, checks: e.verdict.checks.map((c) => ({ n: c.n, pass: c.pass })) },
              feedback: f ? { value: f.value, valueDecimals: f.valueDecimals, tag1: f.tag1, tag2: f.tag2 } : null,
            },
          ];
        }),
      )
      .sort((a, b) => a.ended_at - b.ended_at || a.paymentRef.localeCompare(b.paymentRef));
    return { ok: true, count: ended.length, epochs: ended };
  },
});
