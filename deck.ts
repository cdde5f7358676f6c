import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readConfig, type Config } from './config/env.js';
import { loadCards, loadGrants, loadPlans } from './config/files.js';
import { httpApp } from './rest/app.js';
import { deckServer } from './rest/http-server.js';
import { DECK_ENDPOINT, SELLER_ENDPOINTS } from './sellers/endpoints.js';
import { SELLERS } from './config/sellers.js';
import { HOUSE_WIDE } from './store/backend.js';
import { openBackend } from './store/open-backend.js';
import { openStore } from './store/store.js';
import { FairQueue } from './core/fair-queue.js';
import { WorkPool } from './core/pool/pool.js';
import type { Services } from './services/runtime.js';
import { Rail } from './services/agent/rail.js';
import { Guards } from './services/guards.js';
import { LoginThrottle, noLoginWindows, type LoginWindowsDoc } from './services/identity/login-throttle.js';
import { makeLogger } from './config/logger.js';
import { openOAuthDoor } from './services/oauth/door.js';
import { Plane } from './services/plane/metrics.js';
import { locksOf } from './services/plans/locks.js';
import { perCallOf } from './services/pay/per-call.js';
import { REGISTRY, TOOL_LISTING } from './tools/registry.js';
import { seedSample } from './upstream/tape/sample.js';
import { openUpstreams } from './upstream/upstreams.js';
import { deckTasks } from './sellers/tasks.js';

export const VERSION = '1.0.0';

export interface RunningDeck {
  url: string;
  server: Server;
  services: Services;
  close(): Promise<void>;
}

/**
 * Starts the deck: reads configuration, opens the store and upstreams, and listens. The base URL is the
 * configured public one, or the address it listens on. `clock` (milliseconds) is the wall clock unless a test
 * hands in one it moves.
 */
export async function startDeck(config: Config = readConfig(), clock: () => number = () => Date.now()): Promise<RunningDeck> {
  const log = makeLogger(config);
  // At start, before anything writes, what a crash left half written goes.
  const store = await openStore(await openBackend(config, { sweep: true }));
  await seedSample(config, store.archive, log);
  const plans = loadPlans(config.files.plans);
  const locks = locksOf(plans, REGISTRY);
  const guards = new Guards(store.backend);
  // The work pool's threads start on its first job: made here, the forecaster among the upstreams hands work to it.
  const pool = new WorkPool(config.work);
  const upstreams = await openUpstreams(config, store, clock, plans.chains, log, (work) => guards.run('join', HOUSE_WIDE, work), pool);
  const { server, serve } = deckServer(config.http);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const base = config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const urls = { base, join: config.joinUrl ?? `${base}/join` };
  const chatQueue = new FairQueue('chat', config.chatQueue.concurrency, config.chatQueue.lane);
  const plane = new Plane({
    guardDepths: () => ({ ...guards.depths(), chat_lane: chatQueue.depth(), work_pool: pool.depth() }),
    ledgers: () => store.backend.ledgerHeads(),
    jobsRun: () => pool.jobsRun(),
  });
  const cards = loadCards(config.files.cards);
  const services: Services = {
    // The identity registry is the environment's, else the one the cards file was registered on (as the cards state it).
    config: { ...config, erc8004: { ...config.erc8004, chainId: config.erc8004.chainId ?? cards.erc8004.chain_id, registry: config.erc8004.registry ?? cards.erc8004.registry } },
    urls,
    store,
    upstreams,
    guards,
    chatQueue,
    pool,
    plane,
    // Refusals are counted in the store when decks share it, so every deck rests an address together.
    login: new LoginThrottle(
      config.loginRefusals,
      config.loginWindowS * 1000,
      store.backend.shared ? await store.backend.doc<LoginWindowsDoc>('login-refusals', noLoginWindows) : null,
    ),
    rail: await Rail.open(store, clock),
    offer: {
      plans,
      locks,
      perCall: perCallOf(plans, config.treasury ?? plans.treasury, config.x402Facilitator, REGISTRY, locks),
      grants: loadGrants(config.files.grants),
      sellers: SELLERS.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        endpoint: `${base}/mcp/${s.id}`,
        card_url: `${base}/cards/${s.id}`,
        tools: SELLER_ENDPOINTS.get(s.id)!.tools.map((t) => t.name),
      })),
      tools: TOOL_LISTING,
    },
    oauth: openOAuthDoor(base, [DECK_ENDPOINT, ...SELLER_ENDPOINTS.values()], upstreams.named),
    clock,
    log,
  };
  // The MCP tasks of every endpoint: a task is its principal's wherever it was made, and ends before the store closes.
  const tasks = deckTasks();
  serve(await httpApp(services, cards, VERSION, tasks));
  // The database's URL holds its password: only the kind of store is said.
  log.info('listening', { url: base, store: store.backend.kind, ...(store.backend.kind === 'json' ? { data: config.dataDir } : {}), door: upstreams.door.kind, profile: config.profile });
  return {
    url: base,
    server,
    services,
    async close() {
      plane.close();
      await services.rail.close();
      await pool.close();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
      await tasks.close();
      await store.backend.close();
    },
  };
}
