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

/**
 * better-auth endpoints that lead to a session or only read or end one's own: every other one (the
 * identity library's session and account management: list-sessions, revoke-session(s),
 * update-user, list-accounts, …) is first put to `guardSession` (ADR 169).
 */
const SIGN_IN_PATHS = new Set([
  ...CODE_SENDING_PATHS,
  ...CODE_GUESSING_PATHS,
  '/get-session',
  '/sign-out',
  '/refresh-session',
  '/session-persistence',
  '/ok',
  '/error',
]);
const SIGN_IN_PREFIXES = ['/sign-in/', '/callback/', '/oauth2/callback/'];

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
export const authRoutes: FastifyPluginAsync<{
  auth: Auth;
  publicUrl: string;
  limits: SignInLimits;
  /** Refuses a request to a session-managing endpoint its session may not use (an operator before the second factor). */
  guardSession: (request: FastifyRequest) => Promise<void>;
}> = async (app, { auth, publicUrl, limits, guardSession }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    // Before better-auth sees the request: JSON escapes (`\u0000`) hide a NUL from the raw-text guard,
    // so the parsed body is checked too; then an operator's second factor on the session-managing
    // endpoints, and the sign-in limits of the client address and email.
    preHandler: async (request) => {
      const body = jsonBody(request);
      const nul = body === undefined ? undefined : findNul(body);
      if (nul !== undefined) throw new AppError('VALIDATION_ERROR', `Invalid body: ${nul}: must not contain a NUL character`);
      const path = new URL(request.url, publicUrl).pathname.slice(AUTH_BASE_PATH.length);
      if (!SIGN_IN_PATHS.has(path) && !SIGN_IN_PREFIXES.some((prefix) => path.startsWith(prefix))) await guardSession(request);
      if (request.method !== 'POST') return;
      const email = (body as { email?: unknown } | undefined)?.email;
      if (CODE_SENDING_PATHS.has(path)) {
        await limits.codeRequest(request.ip, typeof email === 'string' ? email : '');
      } else if (CODE_GUESSING_PATHS.has(path)) {
        await limits.guess(request.ip, typeof email === 'string' ? email : '');
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
