import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRefusal, legacyClient, modernClient, namesOf, refusalIn } from './support/mcp.js';
import { answered, callAnswered, everyAct } from './support/answers.js';
import { hireBody, seriesRig, type SeriesRig } from './support/series.js';

// The series as MCP tools on the deck's own /mcp (series_quote keyless, the rest as the signed-in principal), with
// the SDK's real clients; and the layer double's own face to agents: its MCP endpoint and its OpenAPI document.

const SERIES_TOOLS = ['epoch_open', 'series_list', 'series_open', 'series_quote', 'series_read', 'series_revoke'];

let rig: SeriesRig;
beforeAll(async () => {
  rig = await seriesRig();
});
afterAll(() => rig.stop());

const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;

describe('the series tools on /mcp', () => {
  it('are listed on /mcp?toolsets=series (the terms route stays on REST) and on no seller\'s endpoint', async () => {
    const client = await legacyClient(`${rig.url}/mcp?toolsets=series`);
    const names = namesOf((await client.listTools()).tools);
    for (const t of SERIES_TOOLS) expect(names).toContain(t);
    expect(names).not.toContain('series_terms');
    await client.close();
    for (const seller of ['studio', 'candles', 'copy']) {
      const get = (await callAnswered(`${rig.url}/mcp/${seller}`)).body as { tools: string[] };
      expect(get.tools.filter((t) => SERIES_TOOLS.includes(t))).toEqual([]);
    }
  });

  it('quote without a key, as REST does, with the input failure as a 400 result', async () => {
    const client = await legacyClient(`${rig.url}/mcp`);
    const quoted = await client.callTool({ name: 'series_quote', arguments: hireBody() });
    answered('series_quote', quoted.structuredContent);
    expect(quoted.isError).toBeUndefined();
    const rest = await callAnswered(`${rig.url}/v1/series/quote`, { body: hireBody() });
    expect(structured(quoted)).toEqual(rest.body);
    const bad = await client.callTool({ name: 'series_quote', arguments: hireBody({ epochs: 0 }) });
    expect(bad.isError).toBe(true);
    expect(refusalIn(bad)).toMatchObject({ ok: false, error: 'bad_input', status: 400, problems: [{ field: 'epochs' }] });
    await client.close();
    const modern = await modernClient(`${rig.url}/mcp`);
    const again = await modern.callTool({ name: 'series_quote', arguments: hireBody() });
    expect(structured(again)).toEqual(rest.body);
    await modern.close();
  });

  it('need a key for every other series tool', async () => {
    const client = await legacyClient(`${rig.url}/mcp`);
    for (const name of SERIES_TOOLS.filter((t) => t !== 'series_quote')) {
      const { status, error } = httpRefusal(await client.callTool({ name, arguments: {} }).catch((e: unknown) => e));
      expect(status, name).toBe(401);
      expect(error.code, name).toBe(-32001);
    }
    await client.close();
  });

  it('open, open an epoch, read, list and revoke a series as the signed-in principal', async () => {
    const client = await legacyClient(`${rig.url}/mcp`, rig.me.bearer);
    const opened = structured(await client.callTool({ name: 'series_open', arguments: { quote: hireBody() } }));
    answered('series_open', opened);
    expect(opened).toMatchObject({ ok: true, series: { state: 'MANDATED' } });
    const id = opened.series.id as string;
    const epoch = structured(await client.callTool({ name: 'epoch_open', arguments: { id } }));
    answered('epoch_open', epoch);
    expect(epoch).toMatchObject({ ok: true, moved: { row: 'R02' }, epoch: 1, paymentRef: opened.series.epochs[0].paymentRef, unsigned: { value: '0' } });
    const again = await client.callTool({ name: 'epoch_open', arguments: { id } });
    expect(again.isError).toBe(true);
    expect(refusalIn(again)).toMatchObject({ error: 'epoch_open', status: 409 });
    const read = structured(await client.callTool({ name: 'series_read', arguments: { id } }));
    answered('series_read', read);
    expect(read).toEqual((await rig.read(id)).body);
    expect(read.hire).toMatchObject({ handshake_id: epoch.handshake_id, state: 'open' });
    const list = structured(await client.callTool({ name: 'series_list', arguments: {} }));
    answered('series_list', list);
    expect(list.series[0].id).toBe(id);
    const revoked = structured(await client.callTool({ name: 'series_revoke', arguments: { id, revoke: true, why: 'an agent stopped it' } }));
    answered('series_revoke', revoked);
    expect(revoked).toMatchObject({ ok: true, moved: { row: 'R08', from: 'EPOCH_OPEN', to: 'STOPPED' } });
    expect(await everyAct(rig.url, rig.me.bearer)).toEqual(['series']);
    const notMine = await client.callTool({ name: 'series_read', arguments: { id: 'sr_000000000000000000000000' } });
    expect(refusalIn(notMine)).toMatchObject({ error: 'not_found', status: 404 });
    await client.close();
  });
});

describe('the layer double as agents see it', () => {
  it('serves its MCP endpoint: the listed sellers, one seller, and the judge\'s verdict on an epoch', async () => {
    rig.layer.listed = ((await callAnswered(`${rig.url}/cards`)).body.cards as { id: string; endpoint: string; card_url: string; classes: string[] }[]).map((c) => ({
      seller: c.id,
      endpoint: c.endpoint,
      card_url: c.card_url,
      classes: c.classes,
    }));
    const s = await rig.open();
    const opened = (await rig.epochs(s.id)).body;
    rig.layer.submit(opened.handshake_id, { caps: { ...s.quote.caps }, fills: [{ t: rig.clock.seconds(), market: 'ES', side: 'buy', size: 1, price: 6_000 }] });
    rig.layer.endNow(opened.handshake_id);

    const agent = new Client({ name: 'agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${rig.layer.url}/mcp`)));
    expect(namesOf((await agent.listTools()).tools)).toEqual(['seller', 'sellers', 'verdict']);
    const sellers = structured(await agent.callTool({ name: 'sellers', arguments: {} }));
    expect(sellers.sellers.map((x: { seller: string }) => x.seller)).toEqual(['studio', 'candles', 'copy']);
    const copy = structured(await agent.callTool({ name: 'seller', arguments: { seller: 'copy' } }));
    expect(copy.seller).toMatchObject({ endpoint: `${rig.url}/mcp/copy`, card_url: `${rig.url}/cards/copy` });
    const verdict = structured(await agent.callTool({ name: 'verdict', arguments: { handshake_id: opened.handshake_id } }));
    expect(verdict).toMatchObject({ state: 'ended', verdict: { pass: true, checks: [{ n: 1, pass: true }, { n: 2, pass: true }, { n: 3, pass: true }] } });
    // The deck reads the same verdict.
    expect((await rig.read(s.id)).body.series.epochs[0].verdict).toEqual(verdict.verdict);
    await agent.close();
  });

  it('serves a valid OpenAPI 3.1 document of its routes', async () => {
    const doc = (await callAnswered(`${rig.layer.url}/v1/openapi.json`)).body;
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(Object.keys(doc.paths).sort()).toEqual(['/mcp', '/v1/handshakes', '/v1/handshakes/{handshake_id}', '/v1/openapi.json', '/v1/pool/quote', '/v1/settle', '/v1/venues']);
  });

  it('refuses its routes without its key', async () => {
    for (const [method, path] of [['GET', '/v1/venues'], ['POST', '/v1/pool/quote'], ['POST', '/v1/handshakes'], ['POST', '/v1/settle'], ['GET', '/v1/handshakes/x']] as const) {
      const res = await callAnswered(`${rig.layer.url}${path}`, { method, ...(method === 'POST' ? { body: {} } : {}), headers: { authorization: 'Bearer wrong' } });
      expect(res.status, path).toBe(401);
    }
  });
});
