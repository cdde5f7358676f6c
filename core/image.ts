import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';

/**
 * An image sent as base64, decoded and read: its bytes, the type its bytes say (never the label's; null when they
 * are no known type) and their sha256. Held to `cap` before anything else reads them. Decoding and hashing some
 * megabytes takes tens of milliseconds, so the work pool does it (core/pool/worker.ts).
 */
export type ImageRead = { ok: true; bytes: Uint8Array; mime: string | null; sha256: string } | { ok: false; why: 'empty' | 'too_large'; bytes: number };

export async function readImage(base64: string, cap: number): Promise<ImageRead> {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) return { ok: false, why: 'empty', bytes: 0 };
  if (bytes.length > cap) return { ok: false, why: 'too_large', bytes: bytes.length };
  const sniffed = await fileTypeFromBuffer(bytes);
  return { ok: true, bytes, mime: sniffed?.mime ?? null, sha256: createHash('sha256').update(bytes).digest('hex') };
}
