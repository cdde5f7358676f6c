import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * What an endpoint's tool list costs a model: the tokens of the tools array as tools/list answers it, in the
 * o200k_base encoding (GPT-4o's and later OpenAI models'; other vendors' tokenizers differ by a few per cent).
 */
export const listTokens = (tools: readonly unknown[]): number => encode(JSON.stringify(tools)).length;

/** The goal per endpoint: a seller's list under 4k tokens, the deck's whole /mcp under 12k. */
export const tokenGoal = (path: string): number => (path === '/mcp' ? 12_000 : 4_000);
