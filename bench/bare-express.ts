import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BARE_LIST_PATH, readAnswers } from './answers.js';
import { deckServer } from '../rest/http-server.js';
import { readConfig } from '../config/env.js';
import { listening } from './child.js';

// Baseline: bare express routes answering the deck's JSON, configured as the deck's app is (no etag, no
// x-powered-by). The MCP routes do not read the body (tools/list has a path of its own): they are the ceiling a JSON
// answer over express has. The signed-in read does not read its bearer. With BENCH_BORN=1 the same app runs on the
// deck's own server (rest/http-server.ts: requests and responses born with express's prototypes): the floor of an
// express app served as the deck serves its own, over which the deck's own work per request shows.
const answers = readAnswers();
const mcpCall: unknown = JSON.parse(answers.mcpCall);
const mcpList: unknown = JSON.parse(answers.mcpList);
const plans: unknown = JSON.parse(answers.plans);
const me: unknown = JSON.parse(answers.me);
const tape = Buffer.from(answers.tape);

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.post('/mcp/candles', (_req, res) => void res.json(mcpCall));
app.post(BARE_LIST_PATH, (_req, res) => void res.json(mcpList));
app.get('/plans', (_req, res) => void res.json(plans));
app.get('/me', (_req, res) => void res.json(me));
// The sealed window as the deck sends a seal: its bytes as they are, typed JSON; query and bearer are not read.
app.get('/timetravel/candles/BTC/1m', (_req, res) => void res.type('application/json').send(tape));

const born = process.env.BENCH_BORN === '1' ? deckServer(readConfig({}).http) : null;
born?.serve(app);
const server = (born ? born.server : createServer(app)).listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo;
  listening(`http://${address}:${port}`);
});
