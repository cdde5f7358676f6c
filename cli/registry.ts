import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { registryEntries } from '../cards/registry-entry.js';
import { readConfig } from '../config/env.js';
import { VERSION } from '../deck.js';

// `npm run registry -- <folder>`: writes the deck's server.json entries for the official MCP registry, one folder per
// entry (<folder>/<id>/server.json), for the deck at DECK_PUBLIC_URL. Publish each with the registry's publisher.

const out = process.argv[2];
const base = readConfig().publicUrl;
if (!out || !base || !base.startsWith('https://')) {
  process.stderr.write('usage: DECK_PUBLIC_URL=https://<the deck\'s public address> npm run registry -- <folder>\n');
  process.exit(2);
}
for (const e of registryEntries(base, VERSION)) {
  const dir = join(out, e.name.slice(e.name.indexOf('/') + 1));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'server.json'), `${JSON.stringify(e, null, 2)}\n`);
  process.stdout.write(`${join(dir, 'server.json')}: ${e.name} at ${e.remotes[0]!.url}\n`);
}
