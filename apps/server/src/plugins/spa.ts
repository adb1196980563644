import { API_MESSAGES } from '@roots/contracts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { PublicConfig } from '@roots/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type SpaOptions = {
  slug: string;
  productName: string;
  distDir: string;
  publicConfig: PublicConfig;
};

/** Hashed build output never changes under its name; everything else revalidates. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT_LIVED = 'public, max-age=3600';
const NO_CACHE = 'no-cache';

/** Placeholder in apps/web/index.html where the server puts the base URL and public config. */
const HEAD_PLACEHOLDER = '<!--roots:head-->';

/** JSON that is safe inside a <script> element. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Renders the built index.html for this product: base URL, title and public config. */
export function renderIndexHtml(template: string, options: Omit<SpaOptions, 'distDir'>): string {
  const head = [
    `<base href="/${options.slug}/">`,
    `<script type="application/json" id="roots-config">${scriptSafeJson(options.publicConfig)}</script>`,
  ].join('\n    ');
  return template.replace(HEAD_PLACEHOLDER, head).replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(options.productName)}</title>`);
}

/**
 * Serves the built SPA under /{slug}/: hashed assets immutable, index.html no-cache for every
 * client route, `/` and `/{slug}` redirect to `/{slug}/`, and paths outside the product (that ask
 * for HTML) get the SPA with status 404 so it can show its not-found screen.
 */
export async function registerSpa(app: FastifyInstance, options: SpaOptions): Promise<void> {
  const indexPath = join(options.distDir, 'index.html');
  const hasBuild = existsSync(indexPath);
  const indexHtml = hasBuild
    ? renderIndexHtml(readFileSync(indexPath, 'utf8'), options)
    : `<!doctype html><title>${escapeHtml(options.productName)}</title><p>The web app is not built. Run <code>npm start</code>, which builds it.</p>`;
  if (!hasBuild) app.log.warn({ distDir: options.distDir }, 'web build not found; serving a placeholder page');

  const prefix = `/${options.slug}/`;
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      prefix,
      wildcard: false,
      index: false,
      // index.html is rendered per product (below), never served raw.
      globIgnore: ['index.html'],
      // The web build writes .br and .gz beside each text asset (apps/web/vite.config.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', filePath.includes(`${join(options.distDir, 'assets')}`) ? IMMUTABLE : SHORT_LIVED);
      },
    });
  }

  const sendIndex = (reply: FastifyReply, statusCode = 200) =>
    reply.status(statusCode).header('cache-control', NO_CACHE).type('text/html; charset=utf-8').send(indexHtml);

  app.get('/', (_request, reply) => reply.redirect(prefix, 302));
  app.get(`/${options.slug}`, (_request, reply) => reply.redirect(prefix, 301));
  app.get(prefix, (_request, reply) => sendIndex(reply));
  app.get(`${prefix}*`, (request: FastifyRequest, reply) => {
    // A missing hashed asset is a real 404, not the SPA.
    if (request.url.startsWith(`${prefix}assets/`)) {
      return reply.status(404).send({ error: API_MESSAGES.notFound, code: 'NOT_FOUND' });
    }
    return sendIndex(reply);
  });

  app.setNotFoundHandler((request, reply) => {
    const wantsHtml = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (wantsHtml) return sendIndex(reply, 404);
    return reply.status(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'NOT_FOUND' });
  });
}
