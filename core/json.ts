/** A frozen value is its maker's promise that it never changes (an answer built once per deck): its JSON is kept. */
const written = new WeakMap<object, string>();

/** A value's JSON, as JSON.stringify writes it; a frozen value's is written once and kept with it. */
export function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let json = written.get(value);
  if (json === undefined) written.set(value, (json = JSON.stringify(value)));
  return json;
}

/** A request body's UTF-8 bytes as JSON, as body-parser reads them: a byte order mark dropped, an empty body {}. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.length === 0 ? {} : (JSON.parse(text) as unknown);
}
