/** A mark as the words need it: a price the trader placed by hand. */
export interface MarkLike {
  market: string;
  kind: 'level' | 'zone';
  price: number;
  price2?: number;
  note?: string;
}

const said = (m: MarkLike): string => {
  const what = m.kind === 'zone' ? `a zone from ${Math.min(m.price, m.price2!)} to ${Math.max(m.price, m.price2!)}` : `a level at ${m.price}`;
  return m.note ? `${what} (${m.note})` : what;
};

const joined = (parts: string[]): string =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;

/**
 * One plain sentence per market, stating its marks as the trader gave them, in the order they were placed.
 * Markets come in first-placed order, so the same marks always read the same.
 */
export function marksInWords(marks: readonly MarkLike[]): string[] {
  const byMarket = new Map<string, MarkLike[]>();
  for (const m of marks) byMarket.set(m.market, [...(byMarket.get(m.market) ?? []), m]);
  return [...byMarket].map(([market, ms]) => `On ${market} you marked ${joined(ms.map(said))}.`);
}
