import { describe, expect, it } from 'vitest';
import { arrive, GATES, isMove, machineMarkdown, movesFrom, STATES, STUDIO_ACTIONS, STUDIO_STATES, TRANSITIONS, viewOf, type StudioState } from './machine.js';

const RESTATING = ['words', 'image', 'reset'] as const;
const done = (s: StudioState) => STATES[s].done;

/** The states reachable from blank by the table's rows. */
function reachable(): Set<StudioState> {
  const seen = new Set<StudioState>(['blank']);
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of TRANSITIONS) {
      if (seen.has(t.from) && !seen.has(t.to)) {
        seen.add(t.to);
        grew = true;
      }
    }
  }
  return seen;
}

describe('the studio machine', () => {
  it('has eight states, every one reachable from blank', () => {
    expect(STUDIO_STATES).toHaveLength(8);
    expect([...reachable()].sort()).toEqual([...STUDIO_STATES].sort());
  });

  it('earns the gates in order: each state has a prefix of read, forge, rehearse, grade, and holds what it earned', () => {
    for (const s of STUDIO_STATES) {
      expect(done(s), s).toEqual(GATES.slice(0, done(s).length));
      expect(STATES[s].holds.slice(0, done(s).length), s).toEqual(done(s));
    }
    expect(done('graded')).toEqual(GATES);
    expect(STUDIO_STATES.filter((s) => done(s).length === GATES.length)).toEqual(['graded']);
  });

  it('skips nothing: a move earns at most one gate, the next one, and only by that gate\'s own action', () => {
    for (const t of TRANSITIONS) {
      const earned = done(t.to).filter((g) => !done(t.from).includes(g));
      expect(earned.length, `${t.from} --${t.action}--> ${t.to}`).toBeLessThanOrEqual(1);
      if (earned.length === 1) {
        expect(earned[0]).toBe(GATES[done(t.from).length]);
        expect(t.action).toBe(earned[0]);
      }
    }
  });

  it('moves from each state by its next move when it has one, and names no action outside the machine', () => {
    for (const s of STUDIO_STATES) {
      const next = STATES[s].next;
      if (next) expect(isMove(s, next), s).toBe(true);
      for (const a of movesFrom(s)) expect(STUDIO_ACTIONS).toContain(a);
    }
    expect(STUDIO_STATES.filter((s) => STATES[s].next === null)).toEqual(['graded']);
  });

  it('takes words and image from every state and reset from every state but blank, each sending every gate back', () => {
    for (const s of STUDIO_STATES) {
      for (const a of RESTATING) {
        if (s === 'blank' && a === 'reset') {
          expect(isMove(s, a)).toBe(false);
          continue;
        }
        const to = arrive(s, a);
        expect(done(to), `${s} --${a}-->`).toEqual([]);
        expect(STATES[to].holds, `${s} --${a}-->`).toEqual([]);
      }
      if (s !== 'blank') expect(arrive(s, 'reset')).toBe('blank');
    }
    // An image alone states nothing the reader can read: it does not leave blank.
    expect(arrive('blank', 'image')).toBe('blank');
    expect(arrive('blank', 'words')).toBe('worded');
  });

  it('gives read and grade one row per outcome, and every other move one row with none', () => {
    expect(arrive('worded', 'read', 'all_read')).toBe('read');
    expect(arrive('worded', 'read', 'unclear')).toBe('unclear');
    expect(arrive('rehearsed', 'grade', 'accepted')).toBe('graded');
    expect(arrive('rehearsed', 'grade', 'not_accepted')).toBe('rejected');
    for (const t of TRANSITIONS) {
      const outcomes = TRANSITIONS.filter((u) => u.from === t.from && u.action === t.action).map((u) => u.when);
      if (t.action === 'read' || t.action === 'grade') expect(new Set(outcomes).size).toBe(2);
      else expect(outcomes).toEqual([null]);
    }
    expect(() => arrive('worded', 'read')).toThrow(/no row/);
  });

  it('refuses every action that is not a move: the table is the only way between states', () => {
    const refused = STUDIO_STATES.flatMap((s) => STUDIO_ACTIONS.filter((a) => !isMove(s, a)).map((a) => `${s}:${a}`));
    expect(refused).toEqual([
      'blank:reset', 'blank:read', 'blank:forge', 'blank:rehearse', 'blank:grade',
      'worded:forge', 'worded:rehearse', 'worded:grade',
      'unclear:read', 'unclear:forge', 'unclear:rehearse', 'unclear:grade',
      'read:read', 'read:rehearse', 'read:grade',
      'forged:read', 'forged:grade',
      'rehearsed:read',
      'graded:read', 'graded:grade',
      'rejected:read', 'rejected:grade',
    ]);
    for (const r of refused) {
      const [s, a] = r.split(':') as [StudioState, (typeof STUDIO_ACTIONS)[number]];
      expect(() => arrive(s, a)).toThrow(/no row/);
    }
  });

  it('shows a state as { state, next, alt, done, why }, alt being every other move', () => {
    expect(viewOf('blank')).toEqual({ state: 'blank', next: 'words', alt: ['image'], done: [], why: STATES.blank.means });
    expect(viewOf('worded')).toMatchObject({ next: 'read', alt: ['words', 'image', 'reset'], done: [] });
    expect(viewOf('unclear')).toMatchObject({ next: 'words', alt: ['image', 'reset'], done: [] });
    expect(viewOf('read')).toMatchObject({ next: 'forge', alt: ['words', 'image', 'reset'], done: ['read'] });
    expect(viewOf('forged')).toMatchObject({ next: 'rehearse', alt: ['forge', 'words', 'image', 'reset'], done: ['read', 'forge'] });
    expect(viewOf('rehearsed')).toMatchObject({ next: 'grade', alt: ['rehearse', 'forge', 'words', 'image', 'reset'] });
    expect(viewOf('graded')).toMatchObject({ next: null, alt: ['rehearse', 'forge', 'words', 'image', 'reset'], done: ['read', 'forge', 'rehearse', 'grade'] });
    expect(viewOf('rejected')).toMatchObject({ next: 'words', alt: ['image', 'reset', 'rehearse', 'forge'], done: ['read', 'forge', 'rehearse'] });
    for (const s of STUDIO_STATES) {
      const v = viewOf(s);
      expect([...(v.next ? [v.next] : []), ...v.alt].sort()).toEqual(movesFrom(s).sort());
    }
  });

  it('writes the states and the whole table in Markdown, one line per state and per row', () => {
    const md = machineMarkdown().split('\n');
    for (const s of STUDIO_STATES) expect(md.filter((l) => l.startsWith(`- \`${s}\``))).toHaveLength(1);
    expect(md.filter((l) => /^\| [a-z]+ \| [a-z]+ \|/.test(l))).toHaveLength(TRANSITIONS.length);
    expect(md).toContain('| worded | read | a part missing or ambiguous | unclear | the words are read into seven parts (workflow_read) |');
  });
});
