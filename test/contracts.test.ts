import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { COMPILED, sourcesHash, type Compiled } from './fixtures/contracts/sources.js';

// The chain tests deploy the committed compiled output and never compile: it must be built from the sources
// as they are (`npm run contracts` rebuilds it).
describe('the compiled test contracts', () => {
  it('were built from the sources, compiler and OpenZeppelin release in the repository', async () => {
    const compiled = JSON.parse(await readFile(COMPILED, 'utf8')) as Compiled;
    expect(compiled.sources_sha256, 'run npm run contracts').toBe(sourcesHash());
    expect(Object.keys(compiled.contracts).sort()).toEqual(['EpochJobs', 'IdentityRegistry', 'Pass', 'Permit2', 'ReputationRegistry', 'TestUSDC', 'Vault', 'X402UptoProxy']);
    for (const { abi, bytecode } of Object.values(compiled.contracts)) {
      expect(abi.length).toBeGreaterThan(0);
      expect(bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
    }
  });
});
