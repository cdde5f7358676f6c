import { defaultProblems } from './defaults.js';
import { PARTS, RuleReadingSchema, type RuleReading, type Span } from './schema.js';

/**
 * Whether a reading (from any lane) holds to the text it claims to read: it passes the reading schema, every
 * span of every part and reading is a stretch of the text with exactly that text, and every default it claims is
 * what its documented rule gives. A reading with problems is refused; the embedded reader's readings have none.
 */
export function citationProblems(text: string, reading: unknown): string[] {
  const parsed = RuleReadingSchema.safeParse(reading);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.') || 'reading'}: ${i.message}`);
  const problems: string[] = [];
  const check = (where: string, s: Span): void => {
    if (s.to > text.length) problems.push(`${where}: span ${s.from}-${s.to} runs past the text (${text.length} characters)`);
    else if (text.slice(s.from, s.to) !== s.text) problems.push(`${where}: span ${s.from}-${s.to} is not the words it quotes`);
  };
  const r: RuleReading = parsed.data;
  for (const p of PARTS) {
    r[p].spans.forEach((s, i) => check(`${p}.spans.${i}`, s));
    (r[p].readings ?? []).forEach((reading, k) => reading.spans.forEach((s, i) => check(`${p}.readings.${k}.spans.${i}`, s)));
  }
  return [...problems, ...defaultProblems(r)];
}
