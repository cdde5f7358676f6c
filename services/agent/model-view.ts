import type { ModelRecord } from '../../store/models.js';
import type { z } from 'zod';
import type { ModelView } from './answers.js';

/** A model as its operator reads it. */
export const modelView = (m: ModelRecord): z.infer<typeof ModelView> => ({
  name: m.name,
  id: `${m.owner}/${m.name}`,
  decide_url: m.decide_url,
  market: m.market,
  timeframe: m.timeframe,
  caps: m.caps,
  synthetic: m.synthetic,
  created_at: m.created_at,
  refused: m.refused,
});
