// Container images of Roots built from a Debian base the project makes itself (issue 37, ADR 177):
// debootstrap (pinned suite, minimal variant) → `podman import` → a Node runtime (the npm registry's
// Node) → one image per service (server, gateway, analyzer) and PostgreSQL from Debian's package.
// The base, the runtime, PostgreSQL and each service's production dependencies are cached on this
// machine, keyed by their inputs; the services' builds are layered on top on every run.
// Node built-ins only: this runs from `npm test` before anything else is known to be installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NODE_24, registryNode } from './node-lines.mjs';
import { mustRun, npmCommand } from './run.mjs';

/** The Debian the images are made of: suite and variant pinned; the mirror is the one apt uses here. */
export const DEBIAN = { suite: 'bookworm', variant: 'minbase', mirror: 'http://deb.debian.org/debian' };
/** The Node the images carry: the line `npm test` proves on (ADR 141). */
export const IMAGE_NODE = NODE_24;
/** What the base recipe (debianBase) does beyond debootstrap, in its cache key: bump it when the recipe changes. */
const BASE_RECIPE = 1;
/** Emptied in the base: apt's lists and caches, logs, documentation. */
const TRIMMED = ['var/lib/apt/lists', 'var/cache/apt', 'var/log', 'usr/share/doc', 'usr/share/man', 'usr/share/info', 'tmp'];
/** Layer timestamps (SOURCE_DATE_EPOCH): the same inputs give the same layers. 2026-01-01T00:00:00Z. */
export const SOURCE_DATE_EPOCH = 1_767_225_600;

const ROOT = resolve('.');
const CACHE = resolve('.cache/images');
const OPS = resolve('ops/images');

/** Podman with the project's containers.conf (runc, cgroupfs, no default ulimits): see ops/podman. */
export const podmanEnv = () => ({ ...process.env, CONTAINERS_CONF: resolve('ops/podman/containers.conf') });

/** Runs podman; throws on failure. With `capture`, resolves with its standard output. */
export async function podman(args, { capture = false, quiet = false } = {}) {
  if (capture) {
    const result = spawnSync('podman', args, { env: podmanEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`podman ${args.join(' ')} failed: ${result.stderr.trim()}`);
    return result.stdout;
  }
  // Quiet: no output but errors (podman without systemd also logs each health-check timer it cannot set).
  const flags = quiet ? ['--log-level=fatal'] : [];
  await mustRun('podman', [...flags, ...args], { env: podmanEnv(), stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
  return '';
}

export const imageExists = (ref) => spawnSync('podman', ['image', 'exists', ref], { env: podmanEnv() }).status === 0;

const hash = (...parts) => {
  const digest = createHash('sha256');
  for (const part of parts) digest.update(typeof part === 'string' || Buffer.isBuffer(part) ? part : JSON.stringify(part)).update('\0');
  return digest.digest('hex').slice(0, 16);
};

/** Bytes of an image as podman counts them (all its layers). */
export async function imageSize(ref) {
  return Number((await podman(['image', 'inspect', '--format', '{{.Size}}', ref], { capture: true })).trim());
}

/**
 * The Debian base image: debootstrap into .cache, trimmed (apt lists, logs, docs), packed with sorted
 * names and fixed times, imported. Kept between runs under a tag keyed by the suite, variant, mirror,
 * debootstrap's version and BASE_RECIPE.
 */
export async function debianBase() {
  const debootstrapVersion = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'debootstrap']).toString();
  const ref = `localhost/roots-cache-debian:${DEBIAN.suite}-${hash(DEBIAN, debootstrapVersion, BASE_RECIPE, TRIMMED)}`;
  if (imageExists(ref)) return { ref, cached: true };
  const rootfs = join(CACHE, 'rootfs');
  rmSync(rootfs, { recursive: true, force: true });
  mkdirSync(CACHE, { recursive: true });
  console.log(`› debootstrap --variant=${DEBIAN.variant} ${DEBIAN.suite} (${DEBIAN.mirror})…`);
  await mustRun('debootstrap', ['--variant=' + DEBIAN.variant, DEBIAN.suite, rootfs, DEBIAN.mirror], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, SOURCE_DATE_EPOCH: String(SOURCE_DATE_EPOCH) },
  });
  for (const path of TRIMMED) {
    rmSync(join(rootfs, path), { recursive: true, force: true });
    mkdirSync(join(rootfs, path), { recursive: true });
  }
  execFileSync('chmod', ['1777', join(rootfs, 'tmp')]);
  rmSync(join(rootfs, 'etc/machine-id'), { force: true });
  writeFileSync(join(rootfs, 'etc/machine-id'), '');
  const tarball = join(CACHE, 'rootfs.tar');
  await mustRun('tar', [
    '--sort=name',
    `--mtime=@${SOURCE_DATE_EPOCH}`,
    '--numeric-owner',
    '--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime',
    '-C',
    rootfs,
    '-cf',
    tarball,
    '.',
  ]);
  await podman(['import', '--quiet', '--change', 'CMD ["/bin/bash"]', tarball, ref], { quiet: true });
  rmSync(rootfs, { recursive: true, force: true });
  rmSync(tarball, { force: true });
  return { ref, cached: false };
}

const buildArgs = (args) => Object.entries(args).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]);

async function build(ref, containerfile, context, args) {
  await podman(
    [
      'build',
      '--quiet',
      '--format',
      'docker',
      '--layers',
      '--timestamp',
      String(SOURCE_DATE_EPOCH),
      '--network',
      'host',
      ...buildArgs(args),
    ].concat(['-f', join(OPS, containerfile), '-t', ref, context]),
    { quiet: true },
  );
}

/** Node on the Debian base with the services' user and health check; cached by base, Node and recipe. */
async function runtimeImage(base) {
  const node = await registryNode(IMAGE_NODE, 'linux', 'x64');
  const files = ['runtime.Containerfile', 'healthcheck.mjs'].map((name) => readFileSync(join(OPS, name)));
  const ref = `localhost/roots-cache-runtime:node${IMAGE_NODE}-${hash(base, IMAGE_NODE, ...files)}`;
  if (imageExists(ref)) return { ref, cached: true };
  const context = join(CACHE, 'runtime');
  rmSync(context, { recursive: true, force: true });
  mkdirSync(context, { recursive: true });
  cpSync(node, join(context, 'node'));
  cpSync(join(OPS, 'healthcheck.mjs'), join(context, 'healthcheck.mjs'));
  await build(ref, 'runtime.Containerfile', context, { BASE: base });
  return { ref, cached: false };
}

/** PostgreSQL 15 from Debian's package on the base; cached by base and recipe. */
async function postgresImage(base) {
  const files = ['postgres.Containerfile', 'postgres-entrypoint.sh'].map((name) => readFileSync(join(OPS, name)));
  const ref = `localhost/roots-cache-postgres:15-${hash(base, ...files)}`;
  if (imageExists(ref)) return { ref, cached: true };
  const context = join(CACHE, 'postgres');
  rmSync(context, { recursive: true, force: true });
  mkdirSync(context, { recursive: true });
  cpSync(join(OPS, 'postgres-entrypoint.sh'), join(context, 'postgres-entrypoint.sh'));
  await build(ref, 'postgres.Containerfile', context, { BASE: base });
  return { ref, cached: false };
}

/** Every workspace folder (apps/*, packages/*). */
const workspaces = () => ['apps', 'packages'].flatMap((top) => readdirSync(join(ROOT, top)).map((name) => `${top}/${name}`));

/** The three services: where they live, the variable naming their port, and what their build needs at run time. */
export const SERVICES = {
  server: {
    port: ['PORT', 3000],
    files: ['apps/server/dist', 'apps/server/drizzle', 'apps/web/dist', 'packages/analysis/dist', 'packages/analysis/models'],
  },
  gateway: { port: ['GATEWAY_PORT', 4000], files: ['apps/gateway/dist', 'apps/gateway/drizzle', 'packages/secure-fields/dist'] },
  analyzer: { port: ['ANALYZER_PORT', 5000], files: ['apps/analyzer/dist', 'packages/analysis/dist', 'packages/analysis/models'] },
};

/**
 * The production dependencies of one service (`npm ci --omit=dev -w apps/<app>` on the lockfile), in
 * `.cache/images/<app>/deps`, reinstalled only when the lockfile or a workspace manifest changes.
 */
async function dependencies(app) {
  const manifests = ['package.json', 'package-lock.json', ...workspaces().map((dir) => `${dir}/package.json`)];
  const key = hash(app, ...manifests.map((file) => readFileSync(join(ROOT, file))));
  const deps = join(CACHE, app, 'deps');
  const stamp = join(CACHE, app, 'deps.key');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return { cached: true };
  rmSync(deps, { recursive: true, force: true, maxRetries: 3 });
  for (const file of manifests) cpSync(join(ROOT, file), join(deps, file));
  console.log(`› ${app}: production dependencies (npm ci --omit=dev)…`);
  await mustRun(
    npmCommand,
    ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--workspace', `apps/${app}`],
    {
      cwd: deps,
    },
  );
  writeFileSync(stamp, key);
  return { cached: false };
}

/** Copies what a service runs (its build, migrations, web app, models) into its image context. */
function stageApp(app) {
  const staged = join(CACHE, app, 'app');
  rmSync(staged, { recursive: true, force: true });
  for (const file of SERVICES[app].files) {
    if (!existsSync(join(ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
    cpSync(join(ROOT, file), join(staged, file), { recursive: true });
  }
}

/** Removes the cached images of earlier keys (inputs that changed since). */
async function pruneCache(kept) {
  const listed = await podman(['images', '--format', '{{.Repository}}:{{.Tag}}'], { capture: true });
  const stale = listed.split('\n').filter((ref) => ref.startsWith('localhost/roots-cache-') && !kept.includes(ref));
  // Untagging only: the image goes when no other tag or container holds it.
  for (const ref of stale) await podman(['untag', ref], { quiet: true }).catch(() => undefined);
}

/**
 * Builds every image. `tag` names the service images (`localhost/<prefix>-<app>:<tag>`); the cached
 * ones keep their own keyed tags. Returns each image's reference, size in bytes and build seconds.
 */
export async function buildImages({ prefix = 'roots', tag = 'latest', log = console.log } = {}) {
  const figures = {};
  const timed = async (name, work) => {
    const started = performance.now();
    const result = await work();
    const seconds = (performance.now() - started) / 1000;
    figures[name] = { ref: result.ref, seconds: Math.round(seconds * 10) / 10, cached: result.cached ?? false };
    log(`  ${name}: ${result.ref} (${figures[name].seconds} s${result.cached ? ', cached' : ''})`);
    return result;
  };
  const base = await timed('debian base', debianBase);
  const runtime = await timed('node runtime', () => runtimeImage(base.ref));
  const kept = [base.ref, runtime.ref];
  await timed('postgres', async () => {
    const cached = await postgresImage(base.ref);
    kept.push(cached.ref);
    const ref = `localhost/${prefix}-postgres:${tag}`;
    await podman(['tag', cached.ref, ref]);
    return { ref, cached: cached.cached };
  });
  for (const [app, service] of Object.entries(SERVICES)) {
    await timed(app, async () => {
      const deps = await dependencies(app);
      stageApp(app);
      const ref = `localhost/${prefix}-${app}:${tag}`;
      await build(ref, 'app.Containerfile', join(CACHE, app), {
        RUNTIME: runtime.ref,
        APP: app,
        PORT_VARIABLE: service.port[0],
        PORT: String(service.port[1]),
      });
      return { ref, cached: deps.cached };
    });
  }
  for (const entry of Object.values(figures)) entry.bytes = await imageSize(entry.ref);
  await pruneCache(kept);
  return figures;
}
