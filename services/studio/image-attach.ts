import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { secondsToNextUtcDay, utcDay } from '../../store/spend.js';
import { workAsk, type SessionCtx } from '../context.js';
import { badInput, DeckError, limitReached } from '../../core/errors.js';
import { recordSpend } from '../meter/spend.js';
import type { Tier } from '../../core/principal.js';

/** The largest image accepted, decoded. */
export const IMAGE_CAP_BYTES = 5 * 1024 * 1024;

/** The largest body carrying one, in bytes: the image's base64 (a third larger) and the call around it. */
export const IMAGE_BODY_CAP = 8 * 1024 * 1024;

/** Attachments per principal per UTC day, by tier. */
export const IMAGE_CEILING: Readonly<Record<Tier, number>> = { free: 3, plan: 40, max: 40, house: 200 };

const KINDS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

/**
 * Base64 (standard or URL-safe), optionally as a data: URL; the type is sniffed from the bytes, never taken from the
 * label. That it is base64 is checked with its decoding, on the work pool (core/image.ts): some megabytes of it would
 * hold the event loop for tens of milliseconds here.
 */
export const ImageData = z
  .string()
  .transform((s) => s.replace(/^data:[^;,]*;base64,/, ''))
  .pipe(z.string().min(1, 'no image'));

/** Attaches an image (base64 as ImageData reads it) to the principal's studio, inside the tier's daily ceiling. */
export async function attachImage(ctx: SessionCtx, data: string) {
  const p = ctx.principal;
  const read = await ctx.pool.run('imaging', { base64: data, cap: IMAGE_CAP_BYTES }, workAsk(ctx));
  if (!read.ok && read.why === 'empty') throw badInput([{ field: 'data', message: 'no image' }]);
  if (!read.ok && read.why === 'not_base64') throw badInput([{ field: 'data', message: 'not base64' }]);
  if (!read.ok) throw new DeckError(413, 'too_large', `the image is ${read.bytes} bytes; the cap is ${IMAGE_CAP_BYTES}`, { cap_bytes: IMAGE_CAP_BYTES });
  const ext = read.mime ? KINDS[read.mime] : undefined;
  if (!read.mime || !ext) {
    throw new DeckError(415, 'unsupported_image', `PNG, JPEG, WebP or GIF only; these bytes are ${read.mime ?? 'not a known image'}`, { found: read.mime });
  }
  const bytes = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
  const now = ctx.clock();
  const day = utcDay(now);
  const ceiling = IMAGE_CEILING[p.tier];
  const usedToday = (all: readonly { day: string }[]) => all.filter((a) => a.day === day).length;
  const refuse = () => limitReached('ceiling_reached', `the ${p.tier} tier attaches ${ceiling} images a day`, secondsToNextUtcDay(now), { ceiling });
  if (usedToday(ctx.store.attachments.list(p.id)) >= ceiling) throw refuse();
  const record = {
    id: `im_${randomBytes(8).toString('hex')}`,
    mime: read.mime,
    bytes: bytes.length,
    sha256: read.sha256,
    day,
    created_at: ctx.clock(),
  };
  // The bytes are written first, so a record never points at an image that is not there; a call that loses
  // the race for the last place today takes its bytes back.
  await ctx.store.images.put(record.id, ext, bytes);
  const mine = await ctx.store.attachments
    .add(p.id, record, (all) => {
      if (usedToday(all) >= ceiling) throw refuse();
    })
    .catch(async (error: unknown) => {
      await ctx.store.images.remove(record.id, ext);
      throw error;
    });
  await recordSpend(ctx, 'image');
  return { ok: true, id: record.id, tier: p.tier, left_today: ceiling - usedToday(mine) };
}
