/** The value of one sample in a Prometheus text exposition, by name and exact labels (0 when absent). */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.keys(have).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

/** GET /metrics from loopback, as text. */
export async function scrape(url: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers });
  if (res.status !== 200) throw new Error(`metrics: ${res.status} ${await res.text()}`);
  return res.text();
}
