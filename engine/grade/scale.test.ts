import { describe, expect, it } from 'vitest';
import { answerOf, distributionOf } from './scale.js';

describe('the answer scale', () => {
  it.each([
    ['yes', 'yes'],
    [' Yes', 'yes'],
    ['YES.', 'yes'],
    ['y', 'yes'],
    ['partly', 'partly'],
    [' part', 'partly'],
    ['No', 'no'],
    ['n', 'no'],
  ])('reads %j as %s', (word, answer) => {
    expect(answerOf(word)).toBe(answer);
  });

  it.each(['The', 'not', 'nothing', 'yesterday', 'maybe', '', '...', 'partial'])('reads %j as no answer', (word) => {
    expect(answerOf(word)).toBeNull();
  });

  it('normalizes weights over the three answers to four decimals', () => {
    expect(distributionOf({ yes: 0.882, partly: 0.0686, no: 0.0294 })).toEqual({ yes: 0.9, partly: 0.07, no: 0.03 });
    expect(distributionOf({ yes: 3, partly: 2, no: 0 })).toEqual({ yes: 0.6, partly: 0.4, no: 0 });
    expect(distributionOf({ yes: 0, partly: 0, no: 0 })).toBeNull();
  });
});
