import { startDeck } from './deck.js';

// `npm start`: the deck on embedded defaults (JSON files under DECK_DATA, the embedded identity door).
startDeck().catch((error: unknown) => {
  process.stderr.write(`the deck could not start: ${(error as Error).message}\n`);
  process.exit(1);
});
