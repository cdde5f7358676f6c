import { getAddress } from 'ethers';
import { z } from 'zod';
import { holderMessage, signerOf } from '../../engine/plans/messages.js';
import { utcDay } from '../../store/spend.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput, DeckError, notConfigured } from '../../core/errors.js';
import { holderOf } from '../../services/plans/standing.js';
import { Chained, Day, HolderStanding } from '../../services/plans/standing-schema.js';
import { answer } from '../../services/schemas.js';

export const holderLink = defineTool({
  name: 'holder_link',
  title: 'Link a holder wallet',
  description:
    "Links a wallet holding NFTs of the operator's collection to you for today (UTC), adding its holder allowance to your meter. " +
    'signature_hex is the wallet\'s personal signature of exactly "the deck: holder standing\\nagent_id: {agent_id}\\nday: {YYYY-MM-DD}", day being today. ' +
    'The NFTs are counted with balanceOf at the latest block. A wallet links to one principal a day (422 wallet_linked_elsewhere); 422 wallet_unproven when the signature is not the wallet\'s, not_a_holder when it holds none.',
  input: z
    .object({
      wallet_hex: z.string().regex(/^0x[0-9a-fA-F]{40}$/, '0x and 40 hex digits').describe('the holder wallet'),
      day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD').describe('today, UTC'),
      signature_hex: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'a 65-byte signature: 0x and 130 hex digits').describe("the wallet's personal signature of the holder message"),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: 'session',
  output: answer({
    link: z
      .object({
        day: Day,
        wallet: z.string(),
        chain: z.string(),
        collection: z.string(),
        nfts: z.number().int(),
        block: z.number().int().describe('the block balanceOf was read at'),
        ...Chained,
        linked_at: z.iso.datetime(),
      })
      .describe('the link as recorded in its hash-chained ledger'),
    holder: HolderStanding,
  }),
  toolset: TOOLSETS.plans,
  rest: { method: 'POST', path: '/plans/holder', errors: [502, 503] },
  async run(ctx, input) {
    const p = ctx.principal;
    const today = utcDay(ctx.clock());
    if (input.day !== today) throw badInput([{ field: 'day', message: `must be today (UTC), ${today}; sign the message for today` }]);
    const rule = ctx.offer.plans.holder;
    if (!rule) throw notConfigured('holder standing', 'holder { allowance_per_nft, max_nfts } in the plans file');
    const chain = ctx.offer.plans.chains.find((c) => c.collection);
    if (!chain?.collection) throw notConfigured("the operator's collection", 'chains[].collection in the plans file');

    const wallet = getAddress(input.wallet_hex.toLowerCase());
    const signer = signerOf(holderMessage(p.agent_id, input.day), input.signature_hex);
    if (signer !== wallet) {
      throw new DeckError(422, 'wallet_unproven', `signature_hex was signed by ${signer ?? 'no address (it does not parse)'}, not by ${wallet}`, {
        sign: holderMessage(p.agent_id, input.day),
      });
    }
    const elsewhere = (holder: string | null) => {
      if (holder !== null && holder !== p.id) throw new DeckError(422, 'wallet_linked_elsewhere', `the wallet ${wallet} is linked to another principal today`);
    };
    // Refused before the chain is read; checked again when the link is written, in case another won meanwhile.
    elsewhere(ctx.store.holders.holderOf(today, wallet));

    const reader = ctx.upstreams.chains.reader(chain.id);
    // Counted at the latest block, named, so the record says which block it read.
    const block = await reader.head();
    const held = await reader.nftsHeld(chain.collection, wallet, block);
    if (held === 0n) throw new DeckError(422, 'not_a_holder', `the wallet ${wallet} holds no NFT of the collection ${chain.collection} on ${chain.id}`);
    const nfts = held > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(held);

    const link = await ctx.store.holders.link({ day: today, wallet, principal_id: p.id, chain: chain.id, collection: chain.collection, nfts, block }, elsewhere, ctx.clock());
    const { principal_id: _owner, ...recorded } = link.entry;
    return { ok: true, link: { ...recorded, seq: link.seq, hash: link.hash, linked_at: new Date(link.at).toISOString() }, holder: holderOf(ctx, p.id) };
  },
});
