import express from 'express';
import type { AddressInfo } from 'node:net';
import { readAnswers } from './answers.js';
import { listening } from './child.js';

// Baseline: bare express routes answering the deck's JSON, configured as the deck's app is (no etag, no
// x-powered-by). The MCP route does not read the body: it is the ceiling a JSON answer over express has.
const answers = readAnswers();
const mcp: unknown = JSON.parse(answers.mcp);
const plans: unknown = JSON.parse(answers.plans);
const tape = Buffer.from(answers.tape);

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.post('/mcp/candles', (_req, res) => void res.json(mcp));
app.get('/plans', (_req, res) => void res.json(plans));
// The sealed window as the deck sends a seal: its bytes as they are, typed JSON; query and bearer are not read.
app.get('/timetravel/candles/BTC/1m', (_req, res) => void res.type('application/json').send(tape));

const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo;
  listening(`http://${address}:${port}`);
});
