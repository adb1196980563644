import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where browsers send Content-Security-Policy violation reports (csp-report.ts logs them). */
export const CSP_REPORT_PATH = '/api/csp-report';

export type SecurityHeaderOptions = {
  /** Origin of the payment gateway: its card frames, its SDK API and its wallet stand-in scripts. */
  gatewayOrigin: string;
  /** Origins of the configured redirect sign-in providers (their issuers). */
  signInOrigins: readonly string[];
  /** `frame-ancestors` sources, e.g. `'none'` (default) or `https://partner.example`. */
  frameAncestors: string;
  /** Other origins the page calls: the configured subscription services (SUBSCRIPTION_API_URL, …_STAGING_URL). */
  apiOrigins?: readonly string[];
};

/**
 * The policy of every product page (ADR 110). No inline script and no eval: `script-src` is the
 * product's own bundle plus the gateway (its wallet SDK stand-ins load from there). Frames and
 * connections go to the gateway and the sign-in providers only, and connections to a configured
 * subscription service. Styles allow inline because the
 * checkout drop-in adds its own `<style>` element at run time; CSS cannot run code.
 */
export function pageContentSecurityPolicy(options: SecurityHeaderOptions): string {
  const outside = [options.gatewayOrigin, ...options.signInOrigins];
  const directives: Array<[string, ...string[]]> = [
    ['default-src', "'self'"],
    ['script-src', "'self'", options.gatewayOrigin],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'"],
    ['media-src', "'self'", 'blob:'],
    // blob: reads the page's own selfie preview back (never a network request).
    ['connect-src', "'self'", 'blob:', ...outside, ...(options.apiOrigins ?? [])],
    ['frame-src', ...outside],
    ['worker-src', "'self'"],
    ['manifest-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'", ...options.signInOrigins],
    ['frame-ancestors', options.frameAncestors],
    ['report-uri', CSP_REPORT_PATH],
    ['report-to', 'csp'],
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/** Anything that is not a page (JSON, assets, PDFs) may load and frame nothing. */
export function resourceContentSecurityPolicy(frameAncestors: string): string {
  return `default-src 'none'; frame-ancestors ${frameAncestors}`;
}

/**
 * Powerful features: the camera for the selfie on our own pages only, the rest off. Only features
 * Chromium knows: an unknown one (it was 'bluetooth') is a console warning on every page (issue 24).
 */
export const PERMISSIONS_POLICY = 'camera=(self), microphone=(), geolocation=(), usb=(), serial=(), hid=()';

const HSTS = 'max-age=31536000; includeSubDomains';

function isHtml(reply: FastifyReply): boolean {
  return String(reply.getHeader('content-type') ?? '').startsWith('text/html');
}

/**
 * Adds the security headers to every response of the server (ADR 110): the page CSP on HTML, a
 * deny-all CSP on the rest, nosniff, Referrer-Policy, Permissions-Policy, COOP, and HSTS when the
 * request came over https (directly or through a trusted proxy).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const pagePolicy = pageContentSecurityPolicy(options);
  const resourcePolicy = resourceContentSecurityPolicy(options.frameAncestors);
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const html = isHtml(reply);
    reply.header('content-security-policy', html ? pagePolicy : resourcePolicy);
    if (html) reply.header('reporting-endpoints', `csp="${CSP_REPORT_PATH}"`);
    reply.header('x-content-type-options', 'nosniff');
    // A route may be stricter (the emailed cancel link's redirect sends no referrer at all).
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // The gateway's 3-D Secure challenge opens in a popup that answers its opener: allow-popups
    // keeps that link while still cutting off any page that opens ours.
    reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
    if (options.frameAncestors === "'none'") reply.header('x-frame-options', 'DENY');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    return payload;
  });
}
