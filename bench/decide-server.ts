import { everyNBars, startDecide } from '../test/fixtures/decide.js';
import { listening } from './child.js';

// A model's decide() endpoint for the replay benchmark, in a process of its own: it answers every bar at once
// (in 120 bars, long 0.01 BTC on the first and out on the 60th; hold otherwise). Forgets what it was sent.
const fixture = await startDecide(everyNBars(120, 60, 0.01, 300));
const answer = fixture.answer;
fixture.answer = (req) => {
  fixture.received.length = 0;
  return answer(req);
};
listening(fixture.url);
