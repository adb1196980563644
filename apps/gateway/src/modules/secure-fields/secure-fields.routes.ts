import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIELD_TYPES, SECURE_FIELDS_DIST_DIR } from '@roots/secure-fields';
import type { FastifyInstance } from 'fastify';
import { frameAncestorsSources } from '../../plugins/frame-ancestors';

/** Where the frames live under the gateway origin (the SDK's default elements URL). */
export const SECURE_FIELDS_PREFIX = '/secure-fields/v1';

/** The only files served: one html + js per field type, and the shared stylesheet. */
export const SECURE_FIELDS_FILES: ReadonlyMap<string, string> = new Map([
  ...FIELD_TYPES.flatMap((field) => [
    [`${field}.html`, 'text/html; charset=utf-8'] as const,
    [`${field}.js`, 'text/javascript; charset=utf-8'] as const,
  ]),
  ['frame.css', 'text/css; charset=utf-8'],
]);

export type SecureFieldsPluginOptions = {
  /** Built frames (default: packages/secure-fields/dist; run `npm run build -w packages/secure-fields`). */
  distDir?: string;
  /** Origins allowed to embed the frames (CSP frame-ancestors); default none. The app passes the merchant origins. */
  frameAncestors?: string[] | '*';
};

/**
 * The CSP of a frame page: its own script and stylesheet only; it may talk to its own origin
 * (the vault) and nothing else; only the listed merchant origins may frame it.
 */
export function frameCsp(frameAncestors: string[] | '*'): string {
  const ancestors = frameAncestorsSources(frameAncestors);
  return `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors}`;
}

/**
 * Serves the secure-field frames from the gateway origin (ARCHITECTURE.md: card data exists only
 * in the gateway origin). Register with `app.register(secureFieldsRoutes, { frameAncestors })`.
 */
export async function secureFieldsRoutes(app: FastifyInstance, options: SecureFieldsPluginOptions = {}): Promise<void> {
  const distDir = options.distDir ?? SECURE_FIELDS_DIST_DIR;
  const csp = frameCsp(options.frameAncestors ?? []);
  const cache = new Map<string, Buffer>();

  app.get<{ Params: { file: string } }>(`${SECURE_FIELDS_PREFIX}/:file`, async (request, reply) => {
    const file = request.params.file;
    const type = SECURE_FIELDS_FILES.get(file);
    if (!type) return reply.status(404).send({ error: 'Unknown secure-fields asset', code: 'NOT_FOUND', requestId: String(request.id) });
    let body = cache.get(file);
    if (!body) {
      try {
        body = await readFile(join(distDir, file));
      } catch {
        request.log.error({ file, distDir }, 'secure-fields frames are not built (npm run build -w packages/secure-fields)');
        return reply.status(404).send({ error: 'Secure fields are not built', code: 'NOT_FOUND', requestId: String(request.id) });
      }
      cache.set(file, body);
    }
    reply
      .header('content-type', type)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('cache-control', file.endsWith('.html') ? 'no-cache' : 'public, max-age=300');
    if (file.endsWith('.html')) reply.header('content-security-policy', csp);
    // The SDK preloads the card frames' scripts from the merchant page in CORS mode (checkout-spec
    // §7); they are the same public code for everyone and carry no credentials, so any origin may read them.
    else if (file.endsWith('.js')) reply.header('access-control-allow-origin', '*');
    return reply.send(body);
  });
}
