import { badInput } from '../../core/errors.js';
import { TargetRefused, type NamedTargets } from '../../upstream/named-targets.js';

/**
 * A decide() endpoint is an HTTPS URL of the operator's own, without credentials in it, at a public address: its host
 * is resolved now, so the operator hears of a refusal at once (every call checks again where it connects). A
 * loopback address only with DECK_LOOPBACK_TARGETS=1, and then plain HTTP too, to loopback only.
 */
export async function decideUrl(raw: string, targets: NamedTargets): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badInput([{ field: 'decide_url', message: 'not a URL' }]);
  }
  const refuse = (message: string) => badInput([{ field: 'decide_url', message }]);
  if (url.username || url.password) throw refuse('a URL carries no credentials');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('decide() must be an https URL');
  let loopback: boolean;
  try {
    loopback = await targets.isLoopback(url.hostname);
  } catch (error) {
    if (error instanceof TargetRefused) throw refuse(error.message);
    throw error;
  }
  if (url.protocol === 'http:' && !loopback) throw refuse('decide() must be an https URL');
  return url.href;
}
