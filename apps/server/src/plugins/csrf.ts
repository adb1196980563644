import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

/** Methods that read only; everything else changes state. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type OriginCheckOptions = {
  /** Origins whose pages may send state-changing requests with our cookies: PUBLIC_URL and AUTH_TRUSTED_ORIGINS. */
  allowedOrigins: readonly string[];
  /**
   * Paths reached by design from other origins, each protected its own way: the sign-in providers'
   * callbacks (a `form_post` from the provider, checked by better-auth's state) and CSP reports.
   */
  exemptPathPrefixes: readonly string[];
};

/** Refused: a cookie-carrying state change from a page that is not ours. */
export const FOREIGN_ORIGIN_MESSAGE = 'This request did not come from our site.';

/**
 * CSRF defence in depth beside SameSite=Lax (ADR 111): a state-changing request that carries a
 * cookie must name one of our origins in `Origin` (every browser sends it on such requests); a
 * foreign, opaque (`null`) or missing Origin answers 403 (our origins: the one the request addressed,
 * PUBLIC_URL and AUTH_TRUSTED_ORIGINS) before any body is read. Requests without
 * cookies authenticate some other way (or not at all) and pass.
 */
export function isForeignCookieRequest(
  request: Pick<FastifyRequest, 'method' | 'url' | 'headers' | 'protocol' | 'host'>,
  options: OriginCheckOptions,
): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (!request.headers.cookie) return false;
  const path = request.url.split('?')[0] ?? '';
  if (options.exemptPathPrefixes.some((prefix) => path.startsWith(prefix))) return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  // The origin the browser addressed (a page cannot choose the Host its request goes to).
  const addressed = `${request.protocol}://${request.host}`;
  return origin !== addressed && !options.allowedOrigins.includes(origin);
}

export function registerOriginCheck(app: FastifyInstance, options: OriginCheckOptions): void {
  const allowed = options.allowedOrigins.map((origin) => new URL(origin).origin);
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    if (isForeignCookieRequest(request, { ...options, allowedOrigins: allowed })) {
      throw new AppError('FORBIDDEN', FOREIGN_ORIGIN_MESSAGE);
    }
  });
}
