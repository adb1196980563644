// Import cycles, type-only imports included (issue 23): eslint's import-x/no-cycle skips `import type`,
// so a layer drawn wrong through types alone went unseen. madge reads each workspace's sources with
// its own tsconfig and counts every import. Exits 1 and names the cycles when there are any.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import madge from 'madge';

const workspaces = ['apps', 'packages'].flatMap((group) =>
  readdirSync(group)
    .map((name) => join(group, name))
    .filter((dir) => existsSync(join(dir, 'src')) && existsSync(join(dir, 'tsconfig.json'))),
);

let found = 0;
for (const dir of workspaces) {
  const result = await madge(join(dir, 'src'), {
    fileExtensions: ['ts', 'tsx'],
    tsConfig: join(dir, 'tsconfig.json'),
    // Other workspaces are read through their built declarations; their own run checks them.
    excludeRegExp: [/[\\/]dist[\\/]/, /[\\/]node_modules[\\/]/],
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  for (const cycle of result.circular()) {
    found += 1;
    console.error(`${dir}: ${cycle.join(' → ')} → ${cycle[0]}`);
  }
}
if (found > 0) {
  console.error(`${found} import cycle(s), type imports included. Move what both sides need into a module of its own.`);
  process.exit(1);
}
console.info(`no import cycles in ${workspaces.length} workspaces (type imports included)`);
