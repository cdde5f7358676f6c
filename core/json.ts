/** A frozen value is its maker's promise that it never changes (an answer built once per deck): its JSON is kept. */
const written = new WeakMap<object, string>();

/** A value's JSON, as JSON.stringify writes it; a frozen value's is written once and kept with it. */
export function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let json = written.get(value);
  if (json === undefined) written.set(value, (json = JSON.stringify(value)));
  return json;
}
