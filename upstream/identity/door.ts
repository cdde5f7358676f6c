/** A principal as the identity door knows it. */
export interface DoorPrincipal {
  id: string;
  name: string;
  wallet: string | null;
}

/**
 * The identity door mints and verifies keys. It is an upstream: embedded in the deck by default, or
 * a remote door over HTTP. Failures are DeckErrors: 409 name taken, 502 refused, 503 unreachable.
 */
export interface IdentityDoor {
  readonly kind: 'embedded' | 'http';
  /** Mints a principal and its key; the key is returned once and kept by nobody but the person. */
  mint(request: { name: string; wallet: string | null }): Promise<{ principal: DoorPrincipal; key: string }>;
  /** The principal a key belongs to, or null when the door refuses the key. */
  verify(key: string): Promise<DoorPrincipal | null>;
  /** Replaces the principal's key; the old one is refused from this instant. */
  rotate(principalId: string): Promise<string>;
}
