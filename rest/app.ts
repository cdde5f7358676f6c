import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { sellerCard } from '../cards/card.js';
import { deckRegistration } from '../cards/registration.js';
import { agentWalletOf } from '../cards/wallet.js';
import type { CardsFile } from '../config/files.js';
import { PROJECT_ROOT } from '../config/root.js';
import { mcpRoutes } from './mcp-routes.js';
import type { DeckTasks } from '../sellers/tasks.js';
import { sellerById, SELLER_IDS, SELLERS } from '../config/sellers.js';
import type { Services } from '../services/runtime.js';
import { treasuryOf } from '../services/plans/offered.js';
import { REGISTRY } from '../tools/registry.js';
import { restRoutes } from './adapter.js';
import { errorHandler, notFound, pathDecodes } from './errors.js';
import { doorRoutes } from './doors.js';
import { oauthRoutes } from './oauth.js';
import { openapiDocument } from './openapi.js';
import { pageHeaders } from './page-headers.js';
import { pageOf } from '../sellers/app/page.js';
import { planeRoutes, watchRequests } from './plane.js';
import { statusFactsOf } from './statuses.js';

const JOIN_PAGE = readFileSync(join(PROJECT_ROOT, 'rest', 'join-page.html'), 'utf8');
const JOIN_PAGE_HEADERS = pageHeaders(JOIN_PAGE);
const studioPage = () => pageOf('rest/studio-page.html', 'rest/studio-page.ts');

/** The deck over HTTP: the MCP endpoints, the OAuth door, the generated REST routes, the cards, OpenAPI and the join page. */
export async function httpApp(s: Services, cards: CardsFile, version: string, tasks: DeckTasks): Promise<Express> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Who the client is behind a proxy: off by default, so a forged X-Forwarded-For is ignored (DECK_TRUST_PROXY).
  app.set('trust proxy', s.config.trustProxy);

  const wallet = agentWalletOf(cards, s.config.erc8004.chainId, treasuryOf(s), s.offer.plans);
  if (wallet) s.log.info('agent_wallet', { address: wallet.address, chain_id: wallet.chainId, from: wallet.from });
  else s.log.info('agent_wallet_none', { message: 'the cards state no agentWallet: set agent_wallet or owner in the cards file (DECK_CARDS), or a treasury (DECK_TREASURY)' });
  const card = (id: string) => sellerCard(sellerById(id)!, cards, s.config.erc8004, s.urls, s.offer.plans, wallet, s.offer.perCall);
  // Made on the first ask and kept: stating each shape once takes some tens of milliseconds a deck need not spend to start.
  let openapi: string | null = null;
  const openapiJson = () => (openapi ??= JSON.stringify(openapiDocument(REGISTRY, s.urls.base, version, statusFactsOf(s))));

  app.use(watchRequests(s, REGISTRY));
  if (s.config.log === 'debug') {
    app.use((req, res, next) => {
      const started = performance.now();
      res.on('finish', () => s.log.debug('request', { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(performance.now() - started) }));
      next();
    });
  }
  app.use(pathDecodes);
  // Express tries the routes in the order they are added: the MCP endpoints and the REST routes, which take most
  // requests, come first; the rest (OAuth, cards, OpenAPI, plates, the plane) share no path with them.
  mcpRoutes(app, s, version, tasks);
  // The onboarding page and GET /join share a path: a browser asking for HTML gets the page.
  app.get('/join', (req, res, next) => {
    if (req.accepts(['application/json', 'text/html']) !== 'text/html') return next();
    res.type('html').set(JOIN_PAGE_HEADERS).send(JOIN_PAGE);
  });
  // The studio for people: one page calling the deck's own routes with the session cookie (docs/studio.md, the studio page).
  app.get('/studio', (_req, res, next) => {
    studioPage().then((html) => void res.type('html').set(pageHeaders(html)).send(html), next);
  });
  restRoutes(app, s, REGISTRY);
  doorRoutes(app, s);
  oauthRoutes(app, s);
  app.get('/cards', (_req, res) => void res.json({ ok: true, cards: SELLERS.map((x) => card(x.id)) }));
  app.get('/cards/:seller', (req, res) => {
    if (!sellerById(req.params.seller)) {
      res.status(404).json({ ok: false, error: 'unknown_seller', message: `no seller ${req.params.seller}`, sellers: SELLER_IDS });
      return;
    }
    res.json(card(req.params.seller));
  });
  // ERC-8004's endpoint-domain proof, for a domain hosting one agent per seller (docs/cards.md).
  app.get('/.well-known/agent-registration.json', (_req, res) => void res.json(deckRegistration(SELLERS.map((x) => card(x.id)), cards, s.urls.base, wallet)));
  app.get('/openapi.json', (_req, res) => void res.type('json').send(openapiJson()));
  // Sealed plates are content addressed: anyone holding the id may fetch them; they name no one.
  app.get('/plates/:file', (req, res, next) => {
    const m = /^([0-9a-f]{64})\.(png|json)$/.exec(req.params.file);
    if (!m) {
      res.status(404).json({ ok: false, error: 'not_found', message: 'no such plate' });
      return;
    }
    s.store.plates.read(m[1]!, m[2] as 'png' | 'json').then(
      (bytes) => {
        if (!bytes) res.status(404).json({ ok: false, error: 'not_found', message: 'no such plate' });
        else res.type(m[2]!).set('cache-control', 'public, max-age=31536000, immutable').send(bytes);
      },
      (error: unknown) => next(error),
    );
  });
  planeRoutes(app, s, version);
  app.use(notFound);
  app.use(errorHandler(s.log));
  return app;
}
