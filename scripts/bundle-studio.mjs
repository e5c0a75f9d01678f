// Bundles the studio (src/studio/app) for the browser into dist/studio/: index.html, studio.js and
// studio.css, everything inlined (preact, uPlot, marked, DOMPurify), so it works offline and loads
// nothing from a CDN. Prints the sizes, gzipped as a browser fetches them.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import process from 'node:process';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const out = 'dist/studio';
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { studio: 'src/studio/app/main.tsx' },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120', 'firefox120', 'safari17'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: 'tsconfig.studio.json',
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync('src/studio/index.html', `${out}/index.html`);
const sizes = ['studio.js', 'studio.css'].map((file) => {
  const bytes = readFileSync(`${out}/${file}`);
  return `${file} ${(bytes.length / 1024).toFixed(1)} KiB (${(gzipSync(bytes).length / 1024).toFixed(1)} KiB gzipped)`;
});
process.stdout.write(`studio: ${sizes.join(', ')}\n`);
