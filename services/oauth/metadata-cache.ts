import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';

const METADATA_TTL_MS = 10 * 60_000;
const METADATA_CACHED = 1000;

/** Fetched client metadata documents, by client id, for a few minutes. */
export class ClientMetadataCache {
  private readonly kept = new Map<string, { client: OAuthClientInformationFull; until: number }>();

  get(id: string, now: number): OAuthClientInformationFull | null {
    const hit = this.kept.get(id);
    return hit && hit.until > now ? hit.client : null;
  }

  put(id: string, client: OAuthClientInformationFull, now: number): void {
    if (this.kept.size >= METADATA_CACHED) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(id, { client, until: now + METADATA_TTL_MS });
  }
}
