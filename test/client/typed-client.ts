import type { paths } from './deck-api.js';

// A small client of the deck written only against the types generated from its OpenAPI document: if the document
// drops or renames a field this reads, this file no longer type-checks.

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body of an operation's success (200 or 201). */
type Success<Op> = Op extends { responses: infer R } ? Json<R[Extract<keyof R, 200 | 201>]> : never;
/** The JSON body an operation reads. */
type Body<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

export type Catalogue = Success<paths['/catalogue']['get']>;
export type Account = Success<paths['/me']['get']>;
export type Marks = Success<paths['/me/marks']['get']>;
export type Market = NonNullable<paths['/me/marks']['get']['parameters']['query']>['market'];

/** A refused call: the status and the deck's error body. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`the deck answered ${status}: ${JSON.stringify(body)}`);
  }
}

export function deckClient(base: string, session?: string) {
  async function send<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ answer: T; res: Response }> {
    const headers: Record<string, string> = { ...(session ? { authorization: `Bearer ${session}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
    const res = await fetch(`${base}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    const answer = (await res.json()) as unknown;
    if (!res.ok) throw new Refused(res.status, answer);
    return { answer: answer as T, res };
  }
  return {
    catalogue: async () => (await send<Catalogue>('GET', '/catalogue')).answer,
    join: async (who: Body<paths['/join']['post']>) => (await send<Success<paths['/join']['post']>>('POST', '/join', who)).answer,
    /** Signs in: the session is the deck_session cookie, never in the body. */
    login: async (key: Body<paths['/login']['post']>): Promise<string> => {
      const { res } = await send<Success<paths['/login']['post']>>('POST', '/login', key);
      const session = /deck_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
      if (!session) throw new Error('signed in without a deck_session cookie');
      return session;
    },
    account: async () => (await send<Account>('GET', '/me')).answer,
    marks: async (market?: Market) => (await send<Marks>('GET', `/me/marks${market ? `?market=${market}` : ''}`)).answer,
    markAdd: async (mark: Body<paths['/me/marks']['post']>) => (await send<Success<paths['/me/marks']['post']>>('POST', '/me/marks', mark)).answer,
  };
}

/** One line of an account, read through the generated types: each field here must exist with this type. */
export function accountLine(a: Account): string {
  const tone: 'ok' | 'low' | 'spent' = a.meter.tone;
  const wallet: string | null = a.principal.wallet;
  return `${a.principal.name} (${a.principal.tier}, ${a.plan} until ${a.period.end}): ${a.meter.balance} of ${a.meter.allowance} left, ${tone}${wallet ? `, wallet ${wallet}` : ''}`;
}

/** The generated types are exact, not loose: a field the document does not name is an error. */
export function notAField(a: Account): unknown {
  // @ts-expect-error the meter has no field named balanse
  return a.meter.balanse;
}
