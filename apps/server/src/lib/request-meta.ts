import type { FastifyRequest } from 'fastify';

/** Who asked, as a purchase's consent record and events keep it. */
export type RequestMeta = { ip: string; userAgent: string };

export function requestMeta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') };
}
