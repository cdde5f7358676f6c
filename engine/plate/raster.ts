import { Resvg } from '@resvg/resvg-js';
import { createRequire } from 'node:module';

// The font ships inside an npm package and system fonts are never loaded, so the same SVG rasterizes to the same
// bytes on every machine.
const require = createRequire(import.meta.url);
const FONTS = ['DejaVuSansMono.ttf', 'DejaVuSansMono-Bold.ttf'].map((f) => require.resolve(`dejavu-fonts-ttf/ttf/${f}`));

/** Rasterizes a plate's SVG to PNG bytes with resvg (no browser). */
export function rasterize(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: FONTS, defaultFontFamily: 'DejaVu Sans Mono', monospaceFamily: 'DejaVu Sans Mono' },
    shapeRendering: 2,
    textRendering: 1,
    logLevel: 'off',
  });
  return resvg.render().asPng();
}
