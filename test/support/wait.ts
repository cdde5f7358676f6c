/** Polls `read` until `done` holds for its answer (every 20 ms, at most `ms`); answers that answer, or throws with the last one. */
export async function until<T>(read: () => Promise<T>, done: (x: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > end) throw new Error(`still not there after ${ms} ms: ${JSON.stringify(last).slice(0, 1000)}`);
    await new Promise((r) => setTimeout(r, 20));
    last = await read();
  }
  return last;
}
