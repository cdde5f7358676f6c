import type { Dispatcher } from 'undici';
import type { NamedTargets } from '../named-targets.js';
import { undici } from '../undici.js';

/** The largest client metadata document the deck reads: the draft's recommended cap. */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
/** The whole exchange, from asking to the document's last byte. */
export const CLIENT_METADATA_DEADLINE_MS = 5000;

/** Why a fetch was refused or failed, in words for the authorization page's error. */
export class ClientMetadataUnavailable extends Error {}

/**
 * Fetches OAuth Client ID Metadata Documents (the client id is the https URL of its own metadata), with undici: a URL
 * anyone may name, so through the named targets (a public address, checked where the connection is made; loopback too
 * with DECK_LOOPBACK_TARGETS=1); no redirects; at most 5 KiB; one deadline of 5 s for the whole exchange, body
 * included (a server that drips its answer is cut at 5 s, not at 5 s between bytes); and cancelled when `asked`
 * aborts (every request that asked for it has ended).
 */
export class ClientMetadataFetcher {
  constructor(private readonly targets: NamedTargets) {}

  async fetch(url: URL, asked: AbortSignal): Promise<unknown> {
    const deadline = AbortSignal.timeout(CLIENT_METADATA_DEADLINE_MS);
    const signal = AbortSignal.any([deadline, asked]);
    const failed = (error: unknown) =>
      new ClientMetadataUnavailable(
        deadline.aborted
          ? `it did not arrive whole within ${CLIENT_METADATA_DEADLINE_MS / 1000} s`
          : asked.aborted
            ? 'nobody waits for it any more'
            : `it could not be fetched: ${(error as Error).message}`,
      );
    const { request } = await undici();
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, { method: 'GET', headers: { accept: 'application/json' }, dispatcher: await this.targets.dispatcher(), signal });
    } catch (error) {
      throw failed(error);
    }
    if (res.statusCode !== 200) {
      res.body.destroy();
      throw new ClientMetadataUnavailable(`it answered HTTP ${res.statusCode}${res.statusCode >= 300 && res.statusCode < 400 ? ' (redirects are not followed)' : ''}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > CLIENT_METADATA_MAX_BYTES) {
          res.body.destroy();
          throw new ClientMetadataUnavailable(`it is over ${CLIENT_METADATA_MAX_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      throw error instanceof ClientMetadataUnavailable ? error : failed(error);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      throw new ClientMetadataUnavailable('it is not JSON');
    }
  }
}
