import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';

/**
 * An image sent as base64, checked, decoded and read: its bytes, the type its bytes say (never the label's; null when they
 * are no known type) and their sha256. Held to `cap` before anything else reads them. Decoding and hashing some
 * megabytes takes tens of milliseconds, so the work pool does it (core/pool/worker.ts).
 */
export type ImageRead = { ok: true; bytes: Uint8Array; mime: string | null; sha256: string } | { ok: false; why: 'empty' | 'not_base64' | 'too_large'; bytes: number };

/** Base64, standard or URL-safe. */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Reads `sent` as base64, its spaces and line breaks (a mailer's, a PEM's) left out. Every step walks megabytes of
 * text, which is why it is done here and not by the request's schema on the event loop.
 */
export async function readImage(sent: string, cap: number): Promise<ImageRead> {
  const base64 = sent.replace(/\s+/g, '');
  if (base64.length === 0) return { ok: false, why: 'empty', bytes: 0 };
  if (!BASE64.test(base64)) return { ok: false, why: 'not_base64', bytes: 0 };
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) return { ok: false, why: 'empty', bytes: 0 };
  if (bytes.length > cap) return { ok: false, why: 'too_large', bytes: bytes.length };
  const sniffed = await fileTypeFromBuffer(bytes);
  return { ok: true, bytes, mime: sniffed?.mime ?? null, sha256: createHash('sha256').update(bytes).digest('hex') };
}
