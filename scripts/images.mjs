// `npm run images`: builds the product (`npm run build`), then the container images of the server, the
// gateway, the analyzer and PostgreSQL from a Debian base made here with debootstrap (ADR 177), tagged
// `localhost/roots-<name>:<version>`, and prints each image's size and build time.
// Usage: npm run images [-- --tag 0.42.12] [--skip-build] [--json]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildImages } from './lib/images.mjs';
import { mustRun, npmCommand } from './lib/run.mjs';

const { values } = parseArgs({
  options: {
    tag: { type: 'string', default: JSON.parse(readFileSync('package.json', 'utf8')).version },
    'skip-build': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const started = performance.now();
if (!values['skip-build']) await mustRun(npmCommand, ['run', 'build', '--silent']);
const figures = await buildImages({ prefix: 'roots', tag: values.tag, log: values.json ? () => undefined : console.log });
const seconds = Math.round((performance.now() - started) / 100) / 10;
if (values.json) {
  console.log(JSON.stringify({ seconds, images: figures }, null, 2));
} else {
  console.log('\nimage                                     size      build');
  for (const [name, entry] of Object.entries(figures)) {
    console.log(
      `${entry.ref.padEnd(42)}${`${Math.round(entry.bytes / 1e6)} MB`.padStart(7)}${`${entry.seconds} s`.padStart(10)}${entry.cached ? ' (cached)' : ''}  ${name}`,
    );
  }
  console.log(`total ${seconds} s (with npm run build)`);
}
