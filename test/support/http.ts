/** JSON over real HTTP against a test deck: the status and the parsed body (null when there is none). */
export async function call(
  url: string,
  init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const res = await fetch(url, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
