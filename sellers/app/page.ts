import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../config/root.js';
import { VIEW_CSS } from './view.js';

const pages = new Map<string, Promise<string>>();

/**
 * A page of the deck as one HTML document: its template (`<!--style-->` and `<!--script-->` in it) with the
 * rehearsal viewer's style and its browser script (`entry`, TypeScript, bundled with what it imports by esbuild,
 * the deck's own build tool) inlined, so it loads nothing from anywhere, a sandboxed frame included. Built once per
 * process, on first use; the same sources give the same bytes.
 */
export function pageOf(template: string, entry: string): Promise<string> {
  const key = `${template}\n${entry}`;
  let page = pages.get(key);
  if (!page) {
    page = build(template, entry);
    pages.set(key, page);
    page.catch(() => pages.delete(key));
  }
  return page;
}

async function build(template: string, entry: string): Promise<string> {
  const { build: bundle } = await import('esbuild');
  const [html, out] = await Promise.all([
    readFile(join(PROJECT_ROOT, template), 'utf8'),
    bundle({
      absWorkingDir: PROJECT_ROOT,
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
    }),
  ]);
  const script = out.outputFiles[0]!.text.replace(/<\/(script)/gi, '<\\/$1');
  // Function replacers: a bundle holds `$&` and the like, which a string replacement would expand.
  return html.replace('<!--style-->', () => VIEW_CSS).replace('<!--script-->', () => script);
}
