import { z } from 'zod';

/**
 * x402 protocol v2's messages as the deck reads and writes them (the x402 specification v2, its HTTP and MCP
 * transports, and the exact and upto schemes on EVM). Held to zod here rather than taken from @x402/core: its 2.x line is built
 * on zod 3 and viem, a second copy of each beside the deck's zod 4 and ethers, for four small JSON shapes.
 */
export const X402_VERSION = 2;

const decimal = z.string().regex(/^\d{1,78}$/, 'a whole number in the token\'s smallest unit, as a decimal string');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address: 0x and 40 hex digits');

/** What the deck accepts for one call: scheme, network (CAIP-2), amount in the asset's smallest unit, asset, payTo. */
export const PaymentRequirements = z.object({
  scheme: z.string(),
  network: z.string(),
  amount: decimal,
  asset: address,
  payTo: address,
  maxTimeoutSeconds: z.number().int().positive(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentRequirements = z.infer<typeof PaymentRequirements>;

export const Resource = z.object({ url: z.string(), description: z.string(), mimeType: z.string() });
export type Resource = z.infer<typeof Resource>;

/** The answer to an unpaid (or refused) call: why, what is sold, and the ways to pay it. */
export interface PaymentRequired {
  x402Version: typeof X402_VERSION;
  error: string;
  resource: Resource;
  accepts: PaymentRequirements[];
}

/** An EIP-3009 transferWithAuthorization, signed by `from` (the exact scheme's payload on EVM). */
export const Authorization = z.object({
  from: address,
  to: address,
  value: decimal,
  validAfter: decimal,
  validBefore: decimal,
  nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a bytes32 nonce: 0x and 64 hex digits'),
});
export type Authorization = z.infer<typeof Authorization>;

const signature = z.string().regex(/^0x[0-9a-fA-F]+$/, 'a hex signature');

/** The exact scheme's payload on EVM: an EIP-3009 authorization and its signature. */
export const ExactPayload = z.object({ signature, authorization: Authorization });

/**
 * The upto scheme's payload on EVM: a Permit2 permitWitnessTransferFrom signed by `from` for at most
 * `permitted.amount` of `permitted.token`, spent by x402's upto proxy (`spender`) before `deadline`, its witness naming
 * the recipient, the one facilitator that may settle it and when it becomes valid. The nonce is Permit2's: a uint256.
 */
export const Permit2Authorization = z.object({
  from: address,
  permitted: z.object({ token: address, amount: decimal }),
  spender: address,
  nonce: decimal,
  deadline: decimal,
  witness: z.object({ to: address, facilitator: address, validAfter: decimal }),
});
export type Permit2Authorization = z.infer<typeof Permit2Authorization>;
export const UptoPayload = z.object({ signature, permit2Authorization: Permit2Authorization });

/** The client's payment as the transports carry it: the requirements it accepted and its scheme's signed payload. */
export const PaymentEnvelope = z.object({
  x402Version: z.literal(X402_VERSION),
  resource: Resource.optional(),
  accepted: PaymentRequirements,
  payload: z.record(z.string(), z.unknown()),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

/** A payment whose payload has been read as its scheme's: what the facilitator is sent. */
export type PaymentPayload = Omit<z.infer<typeof PaymentEnvelope>, 'payload'> & { payload: z.infer<typeof ExactPayload> | z.infer<typeof UptoPayload> };

/** The facilitator's /verify answer. */
export const VerifyResponse = z.object({ isValid: z.boolean(), invalidReason: z.string().optional(), payer: z.string().optional() });

/**
 * The facilitator's /settle answer, and what the deck hands back as the payment response. The upto scheme adds the
 * amount actually charged (may be 0: then no transaction, an empty string).
 */
export const SettleResponse = z.object({
  success: z.boolean(),
  errorReason: z.string().optional(),
  payer: z.string().optional(),
  transaction: z.string(),
  network: z.string(),
  amount: decimal.optional(),
});
export type SettleResponse = z.infer<typeof SettleResponse>;

/**
 * The facilitator's /supported answer: the (version, scheme, network) kinds it settles, each with what its scheme
 * needs to be paid (upto: the facilitatorAddress a payer's witness must name).
 */
export const SupportedResponse = z.object({
  kinds: z.array(z.object({ x402Version: z.number(), scheme: z.string(), network: z.string(), extra: z.record(z.string(), z.unknown()).optional() })),
});

/** The transports carry these as base64 of their JSON (PAYMENT-REQUIRED, PAYMENT-SIGNATURE, PAYMENT-RESPONSE). */
export const toHeader = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
export const fromHeader = (header: string): unknown => JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
