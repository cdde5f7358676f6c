import { callAnswered } from './answers.js';

/** Who a studio call acts as: the bearer signedIn answered. */
type Who = { bearer: Record<string, string> };

/** The end of the window studio tests rehearse over: 5 April 2018 is a day the shipped BTC minutes hold whole. */
export const REHEARSE_TO = Date.UTC(2018, 3, 6) / 1000;

/** The words of the onboarded EMA cross (BTC 1m, both sides, 2 ATR stop, 2R target). */
export async function emaCrossWords(url: string, who: Who): Promise<string> {
  const { status, body } = await callAnswered(`${url}/forge?onboard=ema-cross`, { headers: who.bearer });
  if (status !== 200) throw new Error(`onboard ema-cross: ${status} ${JSON.stringify(body)}`);
  return body.intent as string;
}

/** Forges the words; answers the seed hash. */
export async function forgeWords(url: string, who: Who, intent: string): Promise<string> {
  const { status, body } = await callAnswered(`${url}/forge`, { body: { intent }, headers: who.bearer });
  if (status !== 200) throw new Error(`forge: ${status} ${JSON.stringify(body)}`);
  return body.seed_hash as string;
}

/** Rehearses a forge over the 24 hours before REHEARSE_TO; answers the envelope. */
export async function rehearseDay(url: string, who: Who, seed: string) {
  const { status, body } = await callAnswered(`${url}/studio/rehearse`, { body: { seed_hash: seed, to: REHEARSE_TO, hours: 24 }, headers: who.bearer });
  if (status !== 200) throw new Error(`rehearse: ${status} ${JSON.stringify(body)}`);
  return body as { trades: unknown[] };
}

/** Units the principal's meter counts spent today. */
export const meterSpent = async (url: string, who: Who): Promise<number> => (await callAnswered(`${url}/meter`, { headers: who.bearer })).body.spent as number;
