import { createHash } from 'node:crypto';

const digestOf = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The text of every inline element `tag` of a page (<script>...</script>, <style>...</style>), as a browser hashes it. */
const inline = (html: string, tag: 'script' | 'style'): string[] =>
  [...html.matchAll(new RegExp(`<${tag}(?:\s[^>]*)?>([^]*?)</${tag}>`, 'g'))].map((m) => m[1]!);

/**
 * The headers every HTML page of the deck is sent with. The Content-Security-Policy lets the page run only its own
 * inline script and style (by their digests, taken from the page as served, so an injected one runs nowhere), talk
 * only to the deck, load nothing else and be framed by no one (frame-ancestors 'none', and X-Frame-Options for
 * browsers that predate it: a consent page that can be framed can be clickjacked). No MIME sniffing, no referrer
 * (the page's address carries an authorization request's id).
 */
export function pageHeaders(html: string): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `script-src ${inline(html, 'script').map(digestOf).join(' ') || "'none'"}`,
    `style-src ${inline(html, 'style').map(digestOf).join(' ') || "'none'"}`,
    "connect-src 'self'",
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}
