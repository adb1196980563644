import type { FastifyInstance } from 'fastify';

/** The CSP frame-ancestors sources of the merchant origins: exactly those origins (`*` only when configured so). */
export function frameAncestorsSources(origins: string[] | '*'): string {
  if (origins === '*') return '*';
  return origins.length > 0 ? origins.join(' ') : "'none'";
}

/** A CSP with its frame-ancestors directive set to the merchant origins (replaced if present, else added). */
export function withFrameAncestors(csp: string | undefined, origins: string[] | '*'): string {
  const directives = (csp ?? '')
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !/^frame-ancestors\b/i.test(directive));
  return [...directives, `frame-ancestors ${frameAncestorsSources(origins)}`].join('; ');
}

/**
 * Every HTML answer of the gateway (secure-field frames, 3-D Secure, redirect, pix and wallet
 * stand-in pages) may be framed only by the merchant origins: one hook, so no page can forget it.
 */
export function registerFrameAncestors(app: FastifyInstance, origins: string[] | '*'): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      const current = reply.getHeader('content-security-policy');
      reply.header('content-security-policy', withFrameAncestors(typeof current === 'string' ? current : undefined, origins));
    }
    return payload;
  });
}

/**
 * Where a gateway page may post its window message: the return page's origin when it is one of the
 * merchant's, otherwise each merchant origin (the browser delivers only to the one that matches).
 * Never `'*'`: with `*` configured and no return URL there is no target, and the page navigates instead.
 */
export function messageTargets(origins: string[] | '*', returnUrl: string | undefined): string[] {
  const returnOrigin = returnUrl ? new URL(returnUrl).origin : undefined;
  if (returnOrigin && (origins === '*' || origins.includes(returnOrigin))) return [returnOrigin];
  return origins === '*' ? [] : origins;
}
