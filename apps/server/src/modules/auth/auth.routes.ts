import { AUTH_BASE_PATH } from '@roots/contracts/auth';
import type { FastifyPluginAsync } from 'fastify';
import type { Auth } from './auth';
import { toHeaders } from './session';

/**
 * Mounts better-auth's Fetch handler on `/api/auth/*`. Bodies pass through as raw text (JSON and the
 * form posts of OpenID `form_post` callbacks alike); better-auth parses them itself.
 */
export const authRoutes: FastifyPluginAsync<{ auth: Auth; publicUrl: string }> = async (app, { auth, publicUrl }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    handler: async (request, reply) => {
      const body = request.method === 'GET' || typeof request.body !== 'string' ? undefined : request.body;
      const response = await auth.handler(
        new Request(new URL(request.url, publicUrl), { method: request.method, headers: toHeaders(request), body }),
      );
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
