import { DECK_ENDPOINT, SELLER_ENDPOINTS, type McpEndpoint } from '../sellers/endpoints.js';
import { HOUSE_TOOLS, SELLERS, type Seller } from '../config/sellers.js';

/** The official MCP registry's server.json format this entry follows. */
export const REGISTRY_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json';

/** What each entry says in the registry's 100 characters. */
const SUMMARY: Readonly<Record<'deck' | Seller['id'], string>> = {
  deck: 'Trading-rule workbench: read a rule, forge it, rehearse it on real candles, grade its fidelity',
  studio: "Forge a trader's own rule into a deterministic machine, rehearse it on the real tape, grade it",
  candles: 'Real OHLCV bars of NQ, ES, YM, BTC, ETH and SOL; a sealed past window answers the same bytes',
  copy: 'Live trading models with records from paired fills, and follow quotes inside your own caps',
};

/** The registry's namespace for a deck: its public host in reverse-DNS order (deck.example is example.deck). */
export const namespaceOf = (base: string): string => new URL(base).hostname.split('.').reverse().join('.');

function entry(base: string, version: string, id: 'deck' | Seller['id'], title: string, e: McpEndpoint) {
  return {
    $schema: REGISTRY_SCHEMA,
    name: `${namespaceOf(base)}/${id}`,
    title,
    description: SUMMARY[id],
    version,
    websiteUrl: `${base}/join`,
    remotes: [
      {
        type: 'streamable-http',
        url: `${base}${e.path}`,
        headers: [
          {
            name: 'Authorization',
            description: 'Bearer and your deck_session value or key, from the join page; leave it out to sign in by OAuth when a tool needs it',
            isRequired: false,
            isSecret: true,
          },
        ],
      },
    ],
  };
}

export type RegistryEntry = ReturnType<typeof entry>;

/**
 * The deck's entries for the official MCP registry (server.json), one per remote endpoint: the deck's own /mcp and
 * each seller whose endpoint serves a tool of its own (a seller whose tools are not built yet is left out, not
 * listed empty). Read from the endpoints, so an entry cannot name an endpoint the deck does not serve.
 */
export function registryEntries(base: string, version: string): RegistryEntry[] {
  const own = (e: McpEndpoint) => e.tools.some((t) => !(HOUSE_TOOLS as readonly string[]).includes(t.name));
  return [
    entry(base, version, 'deck', 'The deck', DECK_ENDPOINT),
    ...SELLERS.filter((s) => own(SELLER_ENDPOINTS.get(s.id)!)).map((s) => entry(base, version, s.id, s.name, SELLER_ENDPOINTS.get(s.id)!)),
  ];
}
