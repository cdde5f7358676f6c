const DAY_MS = 86_400_000;

/** A paid period as recorded: the plan, its price, and when it starts and ends (unix ms). */
export interface PaidPeriod {
  plan: string;
  price_usdc: number;
  start: number;
  end: number;
}

/**
 * The period a payment mined at `paidAt` buys. It runs `period_days` from the block's time, stacked after
 * the periods still running then of plans at least as dear: paying again extends a plan, and a cheaper plan
 * bought under a dearer one waits for it, while a dearer plan starts at once (the tier is the dearest one
 * running, so an upgrade is never held back).
 */
export function periodFor(claimed: readonly PaidPeriod[], plan: { id: string; price_usdc: number; period_days: number }, paidAt: number) {
  const start = claimed.filter((c) => c.price_usdc >= plan.price_usdc && c.end > paidAt).reduce((at, c) => Math.max(at, c.end), paidAt);
  return { start, end: start + plan.period_days * DAY_MS };
}

/**
 * The dearest plan running at `now`, with the end of its unbroken run (`until`: its periods stacked end to
 * end, or overlapping). null when no paid period runs.
 */
export function runningAt<P extends PaidPeriod>(claimed: readonly P[], now: number): (P & { until: number }) | null {
  const running = claimed.filter((c) => c.start <= now && now < c.end).sort((a, b) => b.price_usdc - a.price_usdc);
  const top = running[0];
  if (!top) return null;
  const same = claimed.filter((c) => c.plan === top.plan).sort((a, b) => a.start - b.start);
  let until = top.end;
  for (const c of same) if (c.start <= until && c.end > until) until = c.end;
  return { ...top, until };
}
