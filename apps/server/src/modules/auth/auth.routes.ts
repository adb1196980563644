import { AUTH_BASE_PATH } from '@roots/contracts/auth';
import { findNul } from '@roots/contracts/text';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import type { SignInLimits } from '../../lib/sign-in-limits';
import { CLIENT_IP_HEADER, type Auth } from './auth';
import { toHeaders } from './session';

/** better-auth endpoints that email a code: each counts against the sender's and the recipient's limits. */
const CODE_SENDING_PATHS = new Set(['/email-otp/send-verification-otp', '/forget-password/email-otp', '/email-otp/request-password-reset']);
/** better-auth endpoints that try a code: each counts as a guess of the client's. */
const CODE_GUESSING_PATHS = new Set([
  '/sign-in/email-otp',
  '/email-otp/verify-email',
  '/email-otp/check-verification-otp',
  '/email-otp/reset-password',
]);

/** The JSON body better-auth will read, or undefined when the body is not JSON (form posts, GET). */
function jsonBody(request: FastifyRequest): unknown {
  if (typeof request.body !== 'string' || !String(request.headers['content-type'] ?? '').includes('json')) return undefined;
  try {
    return JSON.parse(request.body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Mounts better-auth's Fetch handler on `/api/auth/*`. Bodies pass through as raw text (JSON and the
 * form posts of OpenID `form_post` callbacks alike); better-auth parses them itself.
 */
export const authRoutes: FastifyPluginAsync<{ auth: Auth; publicUrl: string; limits: SignInLimits }> = async (
  app,
  { auth, publicUrl, limits },
) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    // Before better-auth sees the request: JSON escapes (`\u0000`) hide a NUL from the raw-text guard,
    // so the parsed body is checked too; then the sign-in limits of the client address and email.
    preHandler: async (request) => {
      const body = jsonBody(request);
      const nul = body === undefined ? undefined : findNul(body);
      if (nul !== undefined) throw new AppError('VALIDATION_ERROR', `Invalid body: ${nul}: must not contain a NUL character`);
      if (request.method !== 'POST') return;
      const path = new URL(request.url, publicUrl).pathname.slice(AUTH_BASE_PATH.length);
      if (CODE_SENDING_PATHS.has(path)) {
        const email = (body as { email?: unknown } | undefined)?.email;
        await limits.codeRequest(request.ip, typeof email === 'string' ? email : '');
      } else if (CODE_GUESSING_PATHS.has(path)) {
        await limits.guess(request.ip);
      }
    },
    handler: async (request, reply) => {
      const body = request.method === 'GET' || typeof request.body !== 'string' ? undefined : request.body;
      const headers = toHeaders(request);
      headers.set(CLIENT_IP_HEADER, request.ip);
      const response = await auth.handler(new Request(new URL(request.url, publicUrl), { method: request.method, headers, body }));
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie' && name !== 'content-length') void reply.header(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) void reply.header('set-cookie', cookies);
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
};
