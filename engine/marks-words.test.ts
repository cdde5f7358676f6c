import { describe, expect, it } from 'vitest';
import { marksInWords } from './marks-words.js';

describe('marksInWords', () => {
  it('says nothing for no marks', () => {
    expect(marksInWords([])).toEqual([]);
  });

  it('states one market in one sentence, in the order the marks were placed', () => {
    expect(
      marksInWords([
        { market: 'ES', kind: 'zone', price: 5010, price2: 5000, note: 'overnight range' },
        { market: 'ES', kind: 'level', price: 4990 },
        { market: 'ES', kind: 'level', price: 5050 },
      ]),
    ).toEqual(['On ES you marked a zone from 5000 to 5010 (overnight range), a level at 4990 and a level at 5050.']);
  });

  it('gives each market its own sentence, markets in first-placed order', () => {
    const words = marksInWords([
      { market: 'SOL', kind: 'level', price: 150 },
      { market: 'BTC', kind: 'level', price: 64000 },
      { market: 'SOL', kind: 'level', price: 140 },
    ]);
    expect(words).toEqual(['On SOL you marked a level at 150 and a level at 140.', 'On BTC you marked a level at 64000.']);
  });
});
