/**
 * A seller's picture when the cards file names none: a small SVG badge carried in a data: URI, so the
 * card's image is always a URI an ERC-721 reader can show, without a route or a file to host.
 */
export function badge(sellerId: string): string {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">' +
    '<rect width="256" height="256" rx="32" fill="#101418"/>' +
    '<text x="128" y="112" font-family="monospace" font-size="28" fill="#8fa3b8" text-anchor="middle">the deck</text>' +
    `<text x="128" y="164" font-family="monospace" font-size="40" fill="#e8eef4" text-anchor="middle">${sellerId}</text>` +
    '</svg>';
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
