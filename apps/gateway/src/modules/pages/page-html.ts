import { randomBytes } from 'node:crypto';
import type { GatewayWindowMessage } from '@roots/contracts/gateway';
import type { FastifyInstance, FastifyReply } from 'fastify';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Content-Security-Policy of every hosted page: only our nonce'd script, forms post to ourselves. */
function pageCsp(nonce: string): string {
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-${nonce}'; form-action 'self'; base-uri 'none'`;
}

/** A small, self-contained page on the gateway origin. */
function layout(title: string, body: string, nonce: string, script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 24px; color: #1a1a2e; background: #f6f7fb; }
  main { max-width: 420px; margin: 0 auto; background: #fff; border-radius: 12px; padding: 24px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 1.25rem; margin-top: 0; }
  .sandbox { font-size: .8rem; background: #fff4d6; padding: 6px 10px; border-radius: 6px; }
  label, input, button { display: block; width: 100%; box-sizing: border-box; font-size: 1rem; }
  input { padding: 10px; margin: 6px 0 12px; border: 1px solid #ccd; border-radius: 6px; }
  button { padding: 12px; margin: 8px 0; border: 0; border-radius: 6px; cursor: pointer; background: #3b5bdb; color: #fff; }
  button.secondary { background: #e9ecef; color: #1a1a2e; }
  .error { color: #c92a2a; }
  .qr svg { width: 220px; height: 220px; display: block; margin: 0 auto; }
  code { word-break: break-all; font-size: .75rem; }
</style>
</head>
<body><main>${body}</main>${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body>
</html>`;
}

/** Sends a hosted page with a fresh script nonce and its CSP; never cached, no referrer. */
export function sendPage(reply: FastifyReply, title: string, body: string, script = '', status = 200): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .status(status)
    .header('content-security-policy', pageCsp(nonce))
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(layout(title, body, nonce, script));
}

/**
 * Sends the shopper on to a processor's 3-D Secure page (the issuer's): a GET redirect, or a form
 * that posts the action's data there by itself. Its CSP allows that one form target only.
 */
export function sendRedirectForward(
  reply: FastifyReply,
  redirect: { url: string; method: 'GET' | 'POST'; data?: Record<string, string> | undefined },
): FastifyReply {
  const target = new URL(redirect.url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error('3-D Secure redirect to a non-web URL');
  if (redirect.method === 'GET')
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(target.toString(), 303);
  const nonce = randomBytes(16).toString('base64');
  const fields = Object.entries(redirect.data ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return reply
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; form-action ${target.origin}; base-uri 'none'`,
    )
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(
      layout(
        '3-D Secure',
        `<h1>Confirm your payment</h1><p>Taking you to your bank…</p><form id="forward" method="post" action="${escapeHtml(target.toString())}">${fields}<button type="submit">Continue</button></form>`,
        nonce,
        "document.getElementById('forward').submit();",
      ),
    );
}

/** Lets the routes of this plugin read the urlencoded bodies their pages' forms post (4 KB at most). */
export function acceptFormPosts(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4_096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}

/** An amount in minor units as the pages show it: `24.99 USD`. */
export function formatMinorAmount(value: number, currency: string): string {
  return `${(value / 100).toFixed(2)} ${currency}`;
}

/**
 * The completion script: tells the opener (popup) or parent (iframe) with
 * {@link GatewayWindowMessage} at each of `targetOrigins` (never `'*'`), then closes; without an
 * opener or parent, or without a target, goes to the return URL.
 */
export function completionScript(message: GatewayWindowMessage, targetOrigins: string[], returnUrl: string | undefined): string {
  const targets = targetOrigins.filter((origin) => origin !== '*');
  const data = JSON.stringify({ message, targets, returnUrl: returnUrl ?? null }).replace(/</g, '\\u003c');
  return `(function () {
  var data = ${data};
  var target = window.opener || (window.parent !== window ? window.parent : null);
  if (target && data.targets.length > 0) {
    data.targets.forEach(function (origin) { target.postMessage(data.message, origin); });
    if (window.opener) setTimeout(function () { window.close(); }, 300);
  } else if (data.returnUrl) {
    window.location.replace(data.returnUrl);
  }
})();`;
}
