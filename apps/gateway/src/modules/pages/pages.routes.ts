import { GATEWAY_WINDOW_MESSAGE_TYPE, type ExecutionStatus, type GatewayWindowMessage } from '@roots/contracts/gateway';
import type { FastifyInstance, FastifyReply } from 'fastify';
import QRCode from 'qrcode';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GatewayError } from '../../errors';
import type { ExecutionRow } from '../executions/executions.repository';
import type { ExecutionsService, HostedOutcome } from '../executions/executions.service';
import { acceptFormPosts, completionScript, escapeHtml, formatMinorAmount, sendPage, sendRedirectForward } from './page-html';
import { messageTargets } from '../../plugins/frame-ancestors';
import type { PageTokens } from '../page-token/page-token';
import { pixPayload } from './pix-code';

type PagesOptions = {
  executions: ExecutionsService;
  pageTokens: PageTokens;
  merchantName: string;
  /** The merchant page origins the completion message may go to (never `'*'`). */
  merchantOrigins: string[] | '*';
};

const paramsSchema = z.object({ id: z.string().min(1).max(64) });
const querySchema = z.object({ t: z.string().max(64).optional() });
const challengeFormSchema = z.object({ t: z.string().max(64), action: z.enum(['submit', 'fail']), code: z.string().max(12).optional() });
const hostedFormSchema = z.object({ t: z.string().max(64), outcome: z.enum(['success', 'cancel', 'error', 'pending']) });

/** A hosted page opened or posted with a link past its expiry (410 with a page saying so). */
class PageLinkExpiredError extends Error {
  constructor() {
    super('This page link has expired');
    this.name = 'PageLinkExpiredError';
  }
}

function formatAmount(row: ExecutionRow): string {
  return formatMinorAmount(row.amountValue, row.currency);
}

/** Which return URL an execution's status selects. */
export function outcomeOf(row: ExecutionRow): HostedOutcome {
  switch (row.status as ExecutionStatus) {
    case 'authorizeSuccessful':
      return 'success';
    case 'authorizeFailed':
      return (row.finalState?.errors[0] as { reason?: { code?: string } } | undefined)?.reason?.code === 'payment_canceled'
        ? 'cancel'
        : 'error';
    default:
      return 'pending';
  }
}

function returnUrlFor(row: ExecutionRow, outcome: HostedOutcome): string | undefined {
  const base = row.returnInfo?.[outcome];
  if (!base) return undefined;
  const url = new URL(base);
  url.searchParams.set('executionId', row.id);
  return url.toString();
}

/**
 * The gateway-origin pages a shopper visits: the 3-D Secure challenge, the hosted payment page of
 * redirect methods and the pix page. Each ends on a completion page that messages the opener.
 */
export async function pagesRoutes(app: FastifyInstance, options: PagesOptions): Promise<void> {
  const { executions, pageTokens } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // Forms post urlencoded bodies; only these page routes accept them.
  acceptFormPosts(app);

  const checkToken = (id: string, token: string | undefined) => {
    const check = pageTokens.check(id, token);
    if (check === 'expired') throw new PageLinkExpiredError();
    if (check !== 'valid') throw new GatewayError('FORBIDDEN', 'This page link is not valid');
  };
  // An expired link is a page the shopper reads (in the popup or after a redirect), not JSON.
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof PageLinkExpiredError)) throw error;
    return sendPage(
      reply,
      'Link expired',
      `<h1 data-testid="expired">This payment page has expired</h1><p>Close this window and go back to ${escapeHtml(options.merchantName)}: it shows whether the payment went through, and you can pay again there.</p>`,
      '',
      410,
    );
  });

  const completion = (reply: FastifyReply, row: ExecutionRow, source: GatewayWindowMessage['source']) => {
    const outcome = outcomeOf(row);
    const message: GatewayWindowMessage = {
      type: GATEWAY_WINDOW_MESSAGE_TYPE,
      source,
      executionId: row.id,
      status: row.status as ExecutionStatus,
      outcome,
    };
    const returnUrl = returnUrlFor(row, outcome);
    const targets = messageTargets(options.merchantOrigins, row.returnInfo?.success);
    const text = { success: 'Payment authorized', cancel: 'Payment canceled', error: 'Payment failed', pending: 'Payment pending' }[
      outcome
    ];
    return sendPage(
      reply,
      text,
      `<h1 data-testid="result" data-status="${escapeHtml(row.status)}" data-outcome="${outcome}">${text}</h1><p>You can close this window.</p>`,
      completionScript(message, targets, returnUrl),
    );
  };

  const challengePage = (reply: FastifyReply, row: ExecutionRow, error?: string) => {
    const code = executions.challengeCode(row) ?? '';
    const token = pageTokens.sign(row.id);
    return sendPage(
      reply,
      '3-D Secure',
      `<h1>Confirm your payment</h1>
<p>${escapeHtml(options.merchantName)} · ${escapeHtml(formatAmount(row))}</p>
<p class="sandbox">Sandbox: your one-time code is <strong data-testid="otp-hint">${code}</strong></p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/3ds/${encodeURIComponent(row.id)}">
<input type="hidden" name="t" value="${token}">
<label for="code">One-time code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6">
<button type="submit" name="action" value="submit">Submit</button>
<button type="submit" name="action" value="fail" class="secondary">Fail authentication</button>
</form>`,
    );
  };

  routes.get('/3ds/:id', { schema: { params: paramsSchema, querystring: querySchema } }, async (request, reply) => {
    checkToken(request.params.id, request.query.t);
    const row = await executions.findForPage(request.params.id);
    const redirect = executions.challengeRedirect(row);
    if (redirect) return sendRedirectForward(reply, redirect);
    if (row.status === 'authorizePending' && row.challenge) return challengePage(reply, row);
    return completion(reply, row, 'threeDS');
  });

  // A processor's 3-D Secure (ADR 173): the issuer sends the shopper back here, by GET or POST, with
  // its result (Adyen: redirectResult); the processor finishes the payment, the completion page follows.
  const returnSchema = z.object({ t: z.string().max(64), redirectResult: z.string().min(1).max(20_000).optional() });
  const finishRedirect = async (reply: FastifyReply, id: string, input: z.infer<typeof returnSchema>) => {
    checkToken(id, input.t);
    const row = await executions.finishRedirect(id, input.redirectResult ? { redirectResult: input.redirectResult } : {});
    return completion(reply, row, 'threeDS');
  };
  routes.get('/3ds/:id/return', { schema: { params: paramsSchema, querystring: returnSchema } }, async (request, reply) =>
    finishRedirect(reply, request.params.id, request.query),
  );
  routes.post(
    '/3ds/:id/return',
    { schema: { params: paramsSchema, querystring: querySchema, body: returnSchema.partial({ t: true }) } },
    async (request, reply) => finishRedirect(reply, request.params.id, { ...request.body, t: request.body.t ?? request.query.t ?? '' }),
  );

  routes.post('/3ds/:id', { schema: { params: paramsSchema, body: challengeFormSchema } }, async (request, reply) => {
    checkToken(request.params.id, request.body.t);
    const { row, wrongCode } = await executions.completeChallenge(request.params.id, {
      action: request.body.action,
      code: request.body.code,
    });
    if (wrongCode && row.status === 'authorizePending')
      return challengePage(reply, row, `Wrong code, ${row.challenge?.attemptsLeft ?? 0} attempt(s) left.`);
    return completion(reply, row, 'threeDS');
  });

  routes.get('/hpp/:id', { schema: { params: paramsSchema, querystring: querySchema } }, async (request, reply) => {
    checkToken(request.params.id, request.query.t);
    const row = await executions.findForPage(request.params.id);
    if (row.status !== 'authorizePending' || row.challenge) return completion(reply, row, 'hpp');
    const token = pageTokens.sign(row.id);
    const label = row.paymentMethodCode === 'genericRedirect' ? 'Roots Pay' : (row.paymentMethodCode ?? 'redirect');
    return sendPage(
      reply,
      label,
      `<h1>Pay with ${escapeHtml(label)}</h1>
<p>${escapeHtml(options.merchantName)} · ${escapeHtml(formatAmount(row))}</p>
<p class="sandbox">Sandbox hosted payment page: choose the result.</p>
<form method="post" action="/hpp/${encodeURIComponent(row.id)}">
<input type="hidden" name="t" value="${token}">
<button type="submit" name="outcome" value="success">Authorize payment</button>
<button type="submit" name="outcome" value="pending" class="secondary">Leave pending</button>
<button type="submit" name="outcome" value="error" class="secondary">Fail (error)</button>
<button type="submit" name="outcome" value="cancel" class="secondary">Cancel</button>
</form>`,
    );
  });

  const completeHosted = (source: 'hpp' | 'pix') =>
    routes.post(`/${source}/:id`, { schema: { params: paramsSchema, body: hostedFormSchema } }, async (request, reply) => {
      checkToken(request.params.id, request.body.t);
      const row = await executions.completeHostedPage(request.params.id, request.body.outcome);
      return completion(reply, row, source);
    });
  completeHosted('hpp');
  completeHosted('pix');

  routes.get('/pix/:id', { schema: { params: paramsSchema, querystring: querySchema } }, async (request, reply) => {
    checkToken(request.params.id, request.query.t);
    const row = await executions.findForPage(request.params.id);
    if (row.status !== 'authorizePending' || row.challenge) return completion(reply, row, 'pix');
    const payload = pixPayload({ executionId: row.id, amountMinor: row.amountValue, merchantName: options.merchantName });
    const svg = await QRCode.toString(payload, { type: 'svg', margin: 1 });
    const expiresAt = row.plannedOutcome?.expiresAt ?? '';
    const token = pageTokens.sign(row.id);
    return sendPage(
      reply,
      'Pix',
      `<h1>Pay with Pix</h1>
<p>${escapeHtml(options.merchantName)} · ${escapeHtml(formatAmount(row))}</p>
<div class="qr" data-testid="pix-qr">${svg}</div>
<p>Pix copia e cola:</p><code data-testid="pix-code">${escapeHtml(payload)}</code>
<p>Expires at <time data-testid="pix-expires" datetime="${escapeHtml(expiresAt)}">${escapeHtml(expiresAt)}</time> (<span id="left"></span>)</p>
<form method="post" action="/pix/${encodeURIComponent(row.id)}">
<input type="hidden" name="t" value="${token}">
<p class="sandbox">Sandbox: simulate the bank.</p>
<button type="submit" name="outcome" value="success">Simulate paid</button>
<button type="submit" name="outcome" value="cancel" class="secondary">Cancel</button>
</form>`,
      `(function () {
  var end = Date.parse(${JSON.stringify(expiresAt)}); var el = document.getElementById('left');
  function tick() { var s = Math.max(0, Math.round((end - Date.now()) / 1000)); el.textContent = Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0') + ' left'; if (s === 0) location.reload(); }
  tick(); setInterval(tick, 1000);
})();`,
    );
  });
}
