import { describe, expect, it } from 'vitest';
import { allocBars, barsFromRows, barsToRows, barsWhere, concatBars, readBarsCsv, windowOf } from './bars.js';

describe('bars', () => {
  it('go from rows to struct-of-arrays and back unchanged', () => {
    const rows = [
      { t: 1740798000, o: 85240.45, h: 85278.16, l: 85225.95, c: 85237, v: 10.64798 },
      { t: 1740798060, o: 85237.01, h: 85289.99, l: 85222.92, c: 85289.99, v: 13.01516 },
    ];
    const bars = barsFromRows(rows);
    expect(bars.length).toBe(2);
    expect(bars.t).toBeInstanceOf(Float64Array);
    expect([...bars.c]).toEqual([85237, 85289.99]);
    expect(barsToRows(bars)).toEqual(rows);
  });
});

describe('readBarsCsv', () => {
  it('reads a file with CRLF line ends and a trailing newline', () => {
    const read = readBarsCsv('t,o,h,l,c,v\r\n60,1,2,0.5,1.5,10\r\n120,1.5,1.5,1.5,1.5,0\r\n', 60);
    expect(read.ok && barsToRows(read.bars)).toEqual([
      { t: 60, o: 1, h: 2, l: 0.5, c: 1.5, v: 10 },
      { t: 120, o: 1.5, h: 1.5, l: 1.5, c: 1.5, v: 0 },
    ]);
  });

  it('refuses a file without the header', () => {
    expect(readBarsCsv('time,open,high,low,close,volume\n60,1,2,0.5,1.5,10\n')).toEqual({
      ok: false,
      refused: [{ line: 1, reason: 'the header must be t,o,h,l,c,v' }],
    });
  });

  it('refuses every bad row by its line number', () => {
    const csv = [
      't,o,h,l,c,v',
      '60,1,2,0.5,1.5,10', // line 2: fine
      '120,1,2,0.5', // 3: short
      '180,1,2,x,1.5,1', // 4: not a number
      '240.5,1,2,0.5,1.5,1', // 5: fractional time
      '60,1,2,0.5,1.5,1', // 6: goes back in time
      '300,1,2,0,1,1', // 7: zero price
      '360,1,2,1.2,1.5,1', // 8: low above the open
      '420,1,1.4,0.5,1.5,1', // 9: high below the close
      '480,1,2,0.5,1.5,-1', // 10: negative volume
      '500,1,2,0.5,1.5,1', // 11: off the minute grid
      '540,1,2,0.5,1.5,', // 12: empty field
    ].join('\n');
    const read = readBarsCsv(csv, 60);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.refused.map((r) => r.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(!read.ok && read.refused[3]).toEqual({ line: 6, reason: 't must increase (60 follows 60)' });
  });
});

describe('concatBars', () => {
  it('lays consecutive windows end to end, each column in its place, the parts untouched', () => {
    const a = barsFromRows([{ t: 60, o: 1, h: 2, l: 0.5, c: 1.5, v: 10 }]);
    const b = barsFromRows([
      { t: 120, o: 1.5, h: 3, l: 1, c: 2.5, v: 20 },
      { t: 180, o: 2.5, h: 4, l: 2, c: 3.5, v: 30 },
    ]);
    const whole = concatBars([a, windowOf(b, 0, 2), allocBars(0)]);
    expect(barsToRows(whole)).toEqual([...barsToRows(a), ...barsToRows(b)]);
    whole.c[0] = 99;
    expect(a.c[0]).toBe(1.5);
  });
});

describe('barsWhere', () => {
  it('keeps the bars whose open time passes, as new columns in order', () => {
    const b = barsFromRows([60, 120, 180, 240].map((t) => ({ t, o: t, h: t + 1, l: t - 1, c: t + 0.5, v: t / 60 })));
    const kept = barsWhere(b, (t) => t !== 120 && t !== 240);
    expect(barsToRows(kept)).toEqual(barsToRows(b).filter((r) => r.t === 60 || r.t === 180));
    expect(barsWhere(b, () => false).length).toBe(0);
    kept.t[0] = 0;
    expect(b.t[0]).toBe(60);
  });
});
