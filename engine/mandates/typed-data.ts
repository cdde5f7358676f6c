import { TypedDataEncoder, verifyTypedData, type TypedDataField } from 'ethers';

/** An EIP-712 payload exactly as a wallet signs it (eth_signTypedData_v4), with the signature it returned. */
export interface SignedTypedData {
  domain: Record<string, unknown>;
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  message: Record<string, unknown>;
  signature: string;
}

export interface Problem {
  field: string;
  message: string;
}

const DOMAIN = 'EIP712Domain';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The struct an EIP-712 type names, read through arrays (`T[]`, `T[n]`); null for atomic and dynamic types. */
const structOf = (type: string, types: SignedTypedData['types']): string | null => {
  const base = type.replace(/(\[\d*\])+$/, '');
  return types[base] ? base : null;
};

/**
 * Keys the types do not declare, and declared keys that are missing, as problems naming each field.
 * ethers hashes only the declared fields and silently drops the rest, so a key the signer never signed
 * could otherwise ride along in a record.
 */
export function undeclared(td: SignedTypedData): Problem[] {
  const problems: Problem[] = [];
  const walk = (value: unknown, type: string, path: string) => {
    const struct = structOf(type, td.types);
    if (!struct) return;
    if (type !== struct) {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, type.replace(/\[\d*\]$/, ''), `${path}.${i}`));
      return;
    }
    if (!isObject(value)) return;
    const fields = td.types[struct]!;
    for (const key of Object.keys(value)) {
      if (!fields.some((f) => f.name === key)) problems.push({ field: `${path}.${key}`, message: `not declared by the type ${struct}` });
    }
    for (const f of fields) {
      if (value[f.name] === undefined) problems.push({ field: `${path}.${f.name}`, message: `declared by ${struct} but missing` });
      else walk(value[f.name], f.type, `${path}.${f.name}`);
    }
  };
  if (!td.types[td.primaryType]) problems.push({ field: 'typed_data.primaryType', message: `names no type of types (${td.primaryType})` });
  else walk(td.message, td.primaryType, 'typed_data.message');
  // The domain is declared by EIP712Domain when the payload carries it (a wallet always does).
  const declared = td.types[DOMAIN];
  if (declared) {
    for (const key of Object.keys(td.domain)) {
      if (!declared.some((f) => f.name === key)) problems.push({ field: `typed_data.domain.${key}`, message: `not declared by the type ${DOMAIN}` });
    }
    for (const f of declared) if (td.domain[f.name] === undefined) problems.push({ field: `typed_data.domain.${f.name}`, message: `declared by ${DOMAIN} but missing` });
  }
  return problems;
}

/** The types without EIP712Domain: ethers derives the domain's type from the domain itself and refuses it among the types. */
const structTypes = (types: SignedTypedData['types']) => Object.fromEntries(Object.entries(types).filter(([name]) => name !== DOMAIN));

/** The EIP-712 hash of the payload and the address that signed it; throws with the reason when either cannot be had. */
export function recoverTypedData(td: SignedTypedData): { hash: string; signer: string } {
  const types = structTypes(td.types);
  const hash = TypedDataEncoder.hash(td.domain, types, td.message);
  const signer = verifyTypedData(td.domain, types, td.message, td.signature);
  return { hash, signer };
}

/** The domain's chainId as a number (wallets send it as a number, a decimal string or a hex string); null when absent or not one. */
export function domainChainId(domain: Record<string, unknown>): number | null {
  const raw = domain.chainId;
  if (typeof raw !== 'number' && typeof raw !== 'string') return null;
  try {
    const n = BigInt(raw);
    return n > 0n && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : null;
  } catch {
    return null;
  }
}
