/**
 * The studio machine: eight states per principal's strategy, from a blank rule to a graded one. Gate order: read the
 * rule into seven parts, forge, rehearse, grade. A state moves only by a row of TRANSITIONS; nothing is skipped and
 * no model moves a state (a read or grade outcome is the deck's own code's verdict on the tool's answer).
 *
 * words, image and reset change what the rule says: they are moves from every state that holds something and send
 * every later gate back. Any other action is accepted only as the state's next move or one of its alternatives.
 */

export const STUDIO_STATES = ['blank', 'worded', 'unclear', 'read', 'forged', 'rehearsed', 'graded', 'rejected'] as const;
export type StudioState = (typeof STUDIO_STATES)[number];

export const STUDIO_ACTIONS = ['words', 'image', 'reset', 'read', 'forge', 'rehearse', 'grade'] as const;
export type StudioAction = (typeof STUDIO_ACTIONS)[number];

/** The gates, in the order they are earned. */
export const GATES = ['read', 'forge', 'rehearse', 'grade'] as const;
export type Gate = (typeof GATES)[number];

/** The two moves whose next state is the verdict on their tool's answer. */
export const OUTCOMES = {
  all_read: 'all seven parts read (or completed by a documented default)',
  unclear: 'a part missing or ambiguous',
  accepted: 'the decision is accept',
  not_accepted: 'the decision is revise or reject',
} as const;
export type Outcome = keyof typeof OUTCOMES;

export interface StateInfo {
  /** The gates earned in this state. */
  done: readonly Gate[];
  /** The gates whose evidence the record holds: the earned ones, plus an unclear reading and a rejecting receipt, so their reasons show. */
  holds: readonly Gate[];
  /** The move that earns the next gate, or null when every gate is earned. */
  next: StudioAction | null;
  /** What the state means, in words (the view's `why`). */
  means: string;
}

export const STATES: Readonly<Record<StudioState, StateInfo>> = {
  blank: {
    done: [],
    holds: [],
    next: 'words',
    means: 'No words yet: the rule says nothing the reader can read. An attached image is kept, but no reader reads pictures, so words are the next move.',
  },
  worded: {
    done: [],
    holds: [],
    next: 'read',
    means: 'The words are given; the read gate is not earned for them yet. Read them into seven parts next.',
  },
  unclear: {
    done: [],
    holds: ['read'],
    next: 'words',
    means: 'The words were read and a part is missing or ambiguous (the record\'s reading names which). The same words read the same way: say the rule again in words.',
  },
  read: {
    done: ['read'],
    holds: ['read'],
    next: 'forge',
    means: 'All seven parts are read from the words, or completed by a documented default the reading names. Forge them next.',
  },
  forged: {
    done: ['read', 'forge'],
    holds: ['read', 'forge'],
    next: 'rehearse',
    means: 'The words are forged; the seed hash names the code, kept for two hours (forge again to keep it two more). Rehearse it over the tape next.',
  },
  rehearsed: {
    done: ['read', 'forge', 'rehearse'],
    holds: ['read', 'forge', 'rehearse'],
    next: 'grade',
    means: 'The forge is rehearsed over the tape; the digest names the envelope, the one the grade will judge (another rehearse move replaces it; a rehearsal made outside the studio does not). Grade its fidelity to the words next.',
  },
  graded: {
    done: ['read', 'forge', 'rehearse', 'grade'],
    holds: ['read', 'forge', 'rehearse', 'grade'],
    next: null,
    means: 'Every gate is earned: the grade accepts the rule\'s fidelity to its words, and its receipt is kept. A grade judges fidelity, never profitability.',
  },
  rejected: {
    done: ['read', 'forge', 'rehearse'],
    holds: ['read', 'forge', 'rehearse', 'grade'],
    next: 'words',
    means: 'The grade did not accept: its decision is revise or reject (a failed fact is always reject), and its receipt says why. Say the rule again in words, or forge or rehearse again.',
  },
};

export interface Transition {
  from: StudioState;
  action: StudioAction;
  /** For read and grade: the verdict that picks the row. */
  when: Outcome | null;
  to: StudioState;
  /** What the move does, in words. */
  does: string;
}

const row = (from: StudioState, action: StudioAction, to: StudioState, does: string, when: Outcome | null = null): Transition => ({ from, action, when, to, does });

/** The words, image and reset rows of a state that holds something: each sends every later gate back. */
const restating = (from: Exclude<StudioState, 'blank'>): Transition[] => [
  row(from, 'words', 'worded', 'the words replace the rule\'s words; every gate goes back'),
  row(from, 'image', 'worded', 'the image is attached (image_attach); every gate goes back'),
  row(from, 'reset', 'blank', 'words and images are cleared; every gate goes back'),
];

/** The full transition table, state by state; a (state, action) pair absent here is not a move (409). */
export const TRANSITIONS: readonly Transition[] = [
  row('blank', 'words', 'worded', 'the words are kept as the rule\'s words'),
  row('blank', 'image', 'blank', 'the image is attached (image_attach); still no words'),

  row('worded', 'read', 'read', 'the words are read into seven parts (workflow_read)', 'all_read'),
  row('worded', 'read', 'unclear', 'the words are read into seven parts (workflow_read)', 'unclear'),
  ...restating('worded'),

  ...restating('unclear'),

  row('read', 'forge', 'forged', 'the words are forged (forge); the seed hash is kept'),
  ...restating('read'),

  row('forged', 'rehearse', 'rehearsed', 'the seed is rehearsed over the tape (rehearse); the envelope\'s digest is kept'),
  row('forged', 'forge', 'forged', 'the words are forged again: the same seed, kept two more hours'),
  ...restating('forged'),

  row('rehearsed', 'grade', 'graded', 'the seed is graded (grade); the receipt is kept', 'accepted'),
  row('rehearsed', 'grade', 'rejected', 'the seed is graded (grade); the receipt is kept', 'not_accepted'),
  row('rehearsed', 'rehearse', 'rehearsed', 'another window or market replaces the rehearsal'),
  row('rehearsed', 'forge', 'forged', 'the words are forged again; the rehearsal goes back'),
  ...restating('rehearsed'),

  row('graded', 'rehearse', 'rehearsed', 'another rehearsal replaces the one graded; the grade goes back'),
  row('graded', 'forge', 'forged', 'the words are forged again; the rehearsal and the grade go back'),
  ...restating('graded'),

  ...restating('rejected'),
  row('rejected', 'rehearse', 'rehearsed', 'another rehearsal replaces the one graded; the rejection goes back'),
  row('rejected', 'forge', 'forged', 'the words are forged again; the rehearsal and the rejection go back'),
];

/** What a caller sees of a state: where it is, the awaited move, the other moves, the gates earned and why. */
export interface StudioView {
  state: StudioState;
  next: StudioAction | null;
  alt: StudioAction[];
  done: Gate[];
  why: string;
}

/** The actions that are moves from a state, in the table's order. */
export function movesFrom(state: StudioState): StudioAction[] {
  return [...new Set(TRANSITIONS.filter((t) => t.from === state).map((t) => t.action))];
}

export function viewOf(state: StudioState): StudioView {
  const { next, done, means } = STATES[state];
  return { state, next, alt: movesFrom(state).filter((a) => a !== next), done: [...done], why: means };
}

export const isMove = (state: StudioState, action: StudioAction): boolean => movesFrom(state).includes(action);

/** The state a move arrives at. Throws when the table has no such row: callers check isMove first. */
export function arrive(state: StudioState, action: StudioAction, outcome: Outcome | null = null): StudioState {
  const found = TRANSITIONS.find((t) => t.from === state && t.action === action && t.when === outcome);
  if (!found) throw new Error(`the studio machine has no row ${state} --${action}${outcome ? ` [${outcome}]` : ''}-->`);
  return found.to;
}

/** The states and the transition table in Markdown: docs/studio.md and the OpenAPI description carry these words. */
export function machineMarkdown(): string {
  const states = STUDIO_STATES.map((s) => `- \`${s}\` (earned: ${STATES[s].done.join(', ') || 'none'}; next: ${STATES[s].next ?? 'none'}): ${STATES[s].means}`);
  const rows = TRANSITIONS.map((t) => `| ${t.from} | ${t.action} | ${t.when ? OUTCOMES[t.when] : ''} | ${t.to} | ${t.does} |`);
  return [...states, '', '| State | Action | When | Next state | The move |', '|---|---|---|---|---|', ...rows].join('\n');
}
