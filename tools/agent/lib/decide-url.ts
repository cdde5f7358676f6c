import { isIP } from 'node:net';
import type { Config } from '../../../config/env.js';
import { badInput } from '../../../core/errors.js';

/** Hosts that are this machine (or any of its addresses): a decide() there would have the deck call itself. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '0.0.0.0' || h === '::' || h === '::1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h.startsWith('::ffff:127.') || h === '0:0:0:0:0:0:0:1';
}

/**
 * A decide() endpoint is an HTTPS URL of the operator's own, without credentials in it. A loopback address is
 * refused unless DECK_AGENT_LOOPBACK=1 (the tests' local fixtures), which also lets it be plain HTTP.
 */
export function decideUrl(raw: string, config: Config): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badInput([{ field: 'decide_url', message: 'not a URL' }]);
  }
  const loopback = isLoopback(url.hostname);
  const problem =
    url.username || url.password
      ? 'a URL carries no credentials'
      : loopback && !config.agent.loopback
        ? 'a loopback address is not an endpoint of yours the deck can call'
        : url.protocol !== 'https:' && !(loopback && url.protocol === 'http:')
          ? 'decide() must be an https URL'
          : null;
  if (problem) throw badInput([{ field: 'decide_url', message: problem }]);
  return url.href;
}
