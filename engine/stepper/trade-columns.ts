/**
 * A run's trades as columns: its side, fill bar, exit bar and R, a trade at each index. For runs read in bulk and
 * never answered trade by trade (the verdict's neighbourhood, 51 rules of a thousand trades and more each): a
 * TradeRecord is an object and, in V8, a boxed number for each price, so the neighbourhood's records were half a
 * million objects the young-generation collector copied, and copied again, while the neighbourhood ran.
 */
export class TradeColumns {
  length = 0;
  dir = new Int8Array(64);
  fill = new Int32Array(64);
  exitBar = new Int32Array(64);
  r = new Float64Array(64);

  push(dir: number, fill: number, exitBar: number, r: number): void {
    if (this.length === this.r.length) this.grow();
    const j = this.length++;
    this.dir[j] = dir;
    this.fill[j] = fill;
    this.exitBar[j] = exitBar;
    this.r[j] = r;
  }

  /** The trades' R, in trade order. */
  rs(): Float64Array {
    return this.r.subarray(0, this.length);
  }

  /** Bars the trade at j held, its fill bar and exit bar counted. */
  held(j: number): number {
    return this.exitBar[j]! - this.fill[j]! + 1;
  }

  private grow(): void {
    const size = 2 * this.r.length;
    this.dir = wider(this.dir, new Int8Array(size));
    this.fill = wider(this.fill, new Int32Array(size));
    this.exitBar = wider(this.exitBar, new Int32Array(size));
    this.r = wider(this.r, new Float64Array(size));
  }

  static of(trades: readonly { dir: number; fill: number; exitBar: number; r: number }[]): TradeColumns {
    const out = new TradeColumns();
    for (const t of trades) out.push(t.dir, t.fill, t.exitBar, t.r);
    return out;
  }
}

/** `to`, a larger column, holding `from`'s values first. */
function wider<T extends Int8Array | Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
