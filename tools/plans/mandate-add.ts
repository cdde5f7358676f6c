import { getAddress, isAddress } from 'ethers';
import { z } from 'zod';
import { notHouseMandate } from '../../engine/mandates/house.js';
import { domainChainId, recoverTypedData, undeclared } from '../../engine/mandates/typed-data.js';
import { chainNumber } from '../../upstream/chain/provider.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput, DeckError, notConfigured } from '../../core/errors.js';
import { MandateAnswer, TypedData } from '../../services/mandates/answers.js';

/** The largest mandate recorded, as JSON: a wallet's typed data is a few hundred bytes. */
export const MANDATE_MAX_BYTES = 16 * 1024;

export const mandateAdd = defineTool({
  name: 'mandate_add',
  title: 'Record a house mandate',
  description:
    'Records a mandate for the house operator: typed_data is the EIP-712 payload exactly as the wallet signed it (domain, types with EIP712Domain, primaryType, message) plus the signature it returned. ' +
    "Only a spot administrator's signature over a domain on the house's spot chain is recorded (else 422 not_a_house_mandate); the message names its vault, and the record says whether that vault's on-chain mandateHash() is this mandate's EIP-712 hash (vault_matches): the operator trades only a vault that matches. " +
    'Keys the types do not declare are refused; 413 over 16 KiB. Moves no money.',
  input: z.object({ typed_data: TypedData.describe('the EIP-712 payload as signed, with its signature') }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: MandateAnswer,
  access: 'session',
  // As many entries as 16 KiB can hold: the size cap decides what is too large (413), as the contract says.
  toolset: TOOLSETS.plans,
  rest: { method: 'POST', path: '/me/mandates', maxBody: MANDATE_MAX_BYTES, bounds: { entries: MANDATE_MAX_BYTES / 2 }, errors: [413, 502, 503] },
  async run(ctx, { typed_data: td }) {
    const p = ctx.principal;
    // The REST body cap says the same for HTTP; this holds it over MCP too.
    if (Buffer.byteLength(JSON.stringify(td)) > MANDATE_MAX_BYTES) throw new DeckError(413, 'too_large', `a mandate is at most ${MANDATE_MAX_BYTES} bytes of JSON`);
    const spot = ctx.offer.plans.spot;
    if (!spot) throw notConfigured("the house's spot chain", 'spot { chain, administrators } in the plans file');

    const problems = undeclared(td);
    if (problems.length) throw badInput(problems);
    const vaultField = td.types[td.primaryType]!.find((f) => f.name === 'vault');
    const vault = td.message.vault;
    if (vaultField?.type !== 'address' || typeof vault !== 'string' || !isAddress(vault)) {
      throw badInput([{ field: 'typed_data.message.vault', message: `a house mandate names its vault: a field vault of type address in ${td.primaryType}` }]);
    }
    let signed: { hash: string; signer: string };
    try {
      signed = recoverTypedData(td);
    } catch (error) {
      throw badInput([{ field: 'typed_data', message: `does not verify as EIP-712: ${(error as { shortMessage?: string }).shortMessage ?? (error as Error).message}` }]);
    }

    const chainId = domainChainId(td.domain);
    const why = notHouseMandate(signed.signer, chainId, { chainId: chainNumber(spot.chain), administrators: spot.administrators });
    if (why) throw new DeckError(422, 'not_a_house_mandate', `not a mandate the house operator runs: ${why}`, { signer: signed.signer });

    const onChain = await ctx.upstreams.chains.reader(spot.chain).mandateHash(vault);
    const recorded = await ctx.store.mandates.record(
      {
        principal_id: p.id,
        signer: signed.signer,
        chain_id: chainId!,
        eip712_hash: signed.hash,
        primary_type: td.primaryType,
        vault: getAddress(vault.toLowerCase()),
        vault_matches: onChain !== null && onChain.toLowerCase() === signed.hash.toLowerCase(),
        vault_hash: onChain,
        typed_data: td,
      },
      ctx.clock(),
    );
    const { principal_id: _owner, ...mandate } = recorded.entry;
    return { ok: true, mandate: { ...mandate, seq: recorded.seq, hash: recorded.hash, recorded_at: new Date(recorded.at).toISOString() } };
  },
});
