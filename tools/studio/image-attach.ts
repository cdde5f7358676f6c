import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { ImageAttachAnswer } from '../../services/studio/answers.js';
import { IMAGE_CAP_BYTES, IMAGE_CEILING, ImageData, attachImage, IMAGE_BODY_CAP } from '../../services/studio/image-attach.js';

export const imageAttach = defineTool({
  name: 'image_attach',
  title: 'Attach an image',
  description: `Attaches a chart or screenshot (PNG, JPEG, WebP or GIF, at most ${IMAGE_CAP_BYTES / 1048576} MiB) to your studio. The type is read from the bytes. Daily ceiling: free ${IMAGE_CEILING.free}, plan ${IMAGE_CEILING.plan}, house ${IMAGE_CEILING.house}.`,
  input: z.object({ data: ImageData.describe('base64 image bytes (a data: URL is accepted too)') }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  output: ImageAttachAnswer,
  access: 'session',
  toolset: TOOLSETS.studio,
  rest: { method: 'POST', path: '/studio/image', errors: [413, 415, 429], maxBody: IMAGE_BODY_CAP },
  run: (ctx, { data }) => attachImage(ctx, data),
});
