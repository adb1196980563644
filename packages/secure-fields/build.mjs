// Builds the secure-field frames into static files: dist/<field>.html + dist/<field>.js per field
// type (card fields and the other collect elements), and dist/frame.css. The gateway serves them from its own origin (secure-fields plugin).
/* global URL, Buffer, console */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// One entry per frame type (src/entries/<type>.ts); the gateway serves exactly FIELD_TYPES.
const FIELDS = readdirSync(new URL('./src/entries/', import.meta.url))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -3));
const dist = new URL('./dist/', import.meta.url);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: FIELDS.map((field) => `src/entries/${field}.ts`),
  absWorkingDir: new URL('.', import.meta.url).pathname,
  outdir: 'dist',
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  logLevel: 'warning',
});
// The page template is TypeScript (src/frame-page.ts): compile it in memory and import it.
const page = await build({
  entryPoints: ['src/frame-page.ts'],
  absWorkingDir: new URL('.', import.meta.url).pathname,
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
});
const { FRAME_CSS, framePage } = await import(`data:text/javascript;base64,${Buffer.from(page.outputFiles[0].text).toString('base64')}`);
writeFileSync(new URL('frame.css', dist), FRAME_CSS);
for (const field of FIELDS) writeFileSync(new URL(`${field}.html`, dist), framePage(field));
console.info(`built ${FIELDS.length} secure-field frames into packages/secure-fields/dist`);
