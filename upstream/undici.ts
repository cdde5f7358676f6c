/** undici, loaded on the first outbound call: a deck with no upstream configured never pays for it at start. */
let loaded: Promise<typeof import('undici')> | null = null;
export const undici = (): Promise<typeof import('undici')> => (loaded ??= import('undici'));
