import { z } from 'zod';
import { citationProblems, RuleReadingSchema, type RuleReading } from '../../engine/reader/index.js';
import { DeckError } from '../../core/errors.js';
import { refusalOf } from '../grader/chat.js';
import { callJson, type JsonAnswer } from '../http.js';
import { messagesOf } from './prompt.js';

/** Where the model lane reads, with the house's key when the lane needs one. */
export interface ReaderLane {
  url: string;
  key: string | null;
  model: string;
}

const UPSTREAM = 'the model reader';
/** A reading is a few thousand tokens of JSON; a slow model still writes it well inside this. */
const TIMEOUT_MS = 60_000;

/** The body of one reading, as the OpenAI chat-completions protocol carries it. */
const requestOf = (model: string, text: string, jsonMode: boolean) => ({
  model,
  messages: messagesOf(text),
  temperature: 0,
  ...(jsonMode ? { response_format: { type: 'json_object' } } : {}),
});

const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }) })).min(1),
});

/** A lane that does not know JSON mode says so with a 400 naming response_format; it is asked once more without. */
function refusesJsonMode(answer: JsonAnswer): boolean {
  if (answer.status !== 400 || typeof answer.body !== 'object' || answer.body === null) return false;
  const error = (answer.body as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && /response_format/.test(JSON.stringify(error));
}

/** The reading refused whole, naming every problem: nothing of it is kept or used. */
const refused = (problems: string[]): DeckError =>
  new DeckError(502, 'model_reading_refused', `the model's reading was refused: ${problems.join('; ')}`, { upstream: UPSTREAM, problems });

/** The reading an answer carries: the first choice's content as JSON (a fenced ```json block is unwrapped). */
function candidateOf(body: unknown): unknown {
  const parsed = Completion.safeParse(body);
  if (!parsed.success) throw refused(['the answer is not a chat completion with choices']);
  const message = parsed.data.choices[0]!.message;
  if (message.refusal) throw refused(['the model refused to read the rule']);
  const content = (message.content ?? '').trim().replace(/^```(?:json)?\s*\n([\s\S]*)\n```$/, '$1');
  if (!content) throw refused(['the answer carries no reading']);
  try {
    return JSON.parse(content) as unknown;
  } catch {
    throw refused(['the answer is not JSON']);
  }
}

/**
 * The model lane: one POST {url}/chat/completions per reading, at temperature 0, in JSON mode where the lane knows it.
 * The answer is held to RuleReadingSchema and to the words (citationProblems): any problem refuses the reading whole,
 * 502 model_reading_refused naming them. A lane that cannot be reached is 503; an answer outside 2xx is 502
 * model_reader_refused carrying only its status and the error's type and code (a provider's message may quote the
 * key it was sent).
 */
export class ModelReader {
  constructor(readonly lane: ReaderLane) {}

  private ask(text: string, jsonMode: boolean, ended: AbortSignal): Promise<JsonAnswer> {
    return callJson(UPSTREAM, `${this.lane.url.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      body: requestOf(this.lane.model, text, jsonMode),
      token: this.lane.key,
      timeoutMs: TIMEOUT_MS,
      ended,
    });
  }

  /** Reads the words; `ended` (the end of the request that asked) cancels the reading. */
  async read(text: string, ended: AbortSignal): Promise<RuleReading> {
    let answer = await this.ask(text, true, ended);
    if (refusesJsonMode(answer)) answer = await this.ask(text, false, ended);
    if (answer.status < 200 || answer.status >= 300) {
      throw new DeckError(502, 'model_reader_refused', `the model reader refused the request (HTTP ${answer.status})`, {
        upstream: UPSTREAM,
        reader: refusalOf(answer.status, answer.body),
      });
    }
    const candidate = candidateOf(answer.body);
    const problems = citationProblems(text, candidate);
    if (problems.length > 0) throw refused(problems);
    return RuleReadingSchema.parse(candidate);
  }
}
