/**
 * The envelope states magnitude, never direction. Whatever forecaster answered (the in-process one or an HTTP
 * sidecar), its answer is refused when any key anywhere in it names a side, a direction, a median, a drift, a
 * bias or a mean return. Keys are compared case-insensitively with '_', '-' and spaces ignored, so meanReturn,
 * MEAN_RETURN and mean-return are all the same refusal.
 */

const DIRECTION_KEYS = new Set(['side', 'direction', 'median', 'drift', 'bias', 'meanreturn']);

const normal = (key: string): string => key.toLowerCase().replace(/[\s_-]/g, '');

/** An answer that carries a direction: `path` is where the key sits (dotted, array indexes as numbers). */
export class DirectionFieldError extends Error {
  constructor(
    readonly key: string,
    readonly path: string,
  ) {
    super(`a forecast carries no direction, but this one has '${key}' at ${path}`);
    this.name = 'DirectionFieldError';
  }
}

export function assertNoDirection(answer: unknown): void {
  const seen = new Set<object>();
  const walk = (value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}.${i}`));
      return;
    }
    for (const [key, v] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (DIRECTION_KEYS.has(normal(key))) throw new DirectionFieldError(key, at);
      walk(v, at);
    }
  };
  walk(answer, '$');
}
