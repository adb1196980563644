import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExecutionsService, PayPalApproval } from '../executions/executions.service';
import { acceptFormPosts, escapeHtml, formatMinorAmount, sendPage } from '../pages/page-html';
import { GOOGLE_PAY_GATEWAY_MERCHANT_ID, PAYPAL_SANDBOX_CLIENT_ID } from '../sessions/payment-methods';
import { GOOGLE_PAY_STAND_IN_SCRIPT, GOOGLE_PAY_SHEET_MESSAGE } from './google-pay-stand-in';
import { GOOGLE_PAY_SANDBOX_CARDS, mintGooglePayToken } from '../wallet-tokens/google-pay-token';
import { PAYPAL_APPROVAL_MESSAGE, payPalStandInScript } from './paypal-stand-in';

type ProviderSandboxOptions = {
  executions: ExecutionsService;
  merchantName: string;
  /** Merchant page origins the wallet pages may answer to, or '*'. */
  merchantOrigins: string[] | '*';
  walletSecret: string;
};

/** Where the stand-ins live; the SDK's default wallet script URLs outside PROD point here. */
export const GOOGLE_PAY_STAND_IN_PATH = '/sandbox/google-pay/pay.js';
export const PAYPAL_STAND_IN_PATH = '/sandbox/paypal/sdk/js';

const originSchema = z
  .string()
  .max(200)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'must be an origin such as https://shop.example');

const sheetQuerySchema = z.object({
  origin: originSchema,
  merchantName: z.string().max(100).default(''),
  totalPrice: z.string().max(20).default(''),
  currencyCode: z.string().max(3).default(''),
  gatewayMerchantId: z.string().max(100),
  billingAddressRequired: z.enum(['0', '1']).default('0'),
});
const sheetFormSchema = z.object({
  origin: originSchema,
  gatewayMerchantId: z.string().max(100),
  billingAddressRequired: z.enum(['0', '1']).default('0'),
  card: z.string().max(40).optional(),
  action: z.enum(['pay', 'cancel']),
});
const payPalScriptQuerySchema = z.object({
  'client-id': z.string().max(100),
  intent: z.enum(['capture', 'authorize', 'tokenize']).default('capture'),
  vault: z.enum(['true', 'false']).default('false'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .default('USD'),
  components: z.string().max(100).default('buttons'),
});
const payPalPageQuerySchema = z.object({ token: z.string().min(1).max(64), origin: originSchema });
const payPalFormSchema = payPalPageQuerySchema.extend({ action: z.enum(['approve', 'cancel']) });

/** Posts one message to the opener (the merchant page) at its origin, then closes the window. */
function openerScript(message: unknown, targetOrigin: string): string {
  const data = JSON.stringify({ message, targetOrigin }).replace(/</g, '\\u003c');
  return `(function () {
  var data = ${data};
  if (window.opener) {
    window.opener.postMessage(data.message, data.targetOrigin);
    setTimeout(function () { window.close(); }, 300);
  }
})();`;
}

/**
 * The provider stand-ins (ADR 045): Google's `pay.js` and PayPal's JS SDK as scripts that speak the
 * same surface, and the gateway-origin pages behind them — the wallet sheet that mints a signed
 * payment token, and the approval page that approves a PayPal order or billing agreement. Payments
 * then complete through the executions' authorize and confirm links, like any other.
 */
export async function providerSandboxRoutes(app: FastifyInstance, options: ProviderSandboxOptions): Promise<void> {
  const { executions } = options;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  acceptFormPosts(app);

  const allowedOrigin = (origin: string) => options.merchantOrigins === '*' || options.merchantOrigins.includes(origin);

  const refuse = (reply: FastifyReply, title: string, text: string, status: number) =>
    sendPage(
      reply,
      title,
      `<h1>${escapeHtml(title)}</h1><p class="error" role="alert" data-testid="sandbox-error">${escapeHtml(text)}</p>`,
      '',
      status,
    );

  const script = (reply: FastifyReply, body: string) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(body);

  // ----- Google-type wallet -----------------------------------------------------------------

  routes.get(GOOGLE_PAY_STAND_IN_PATH, async (_request, reply) => script(reply, GOOGLE_PAY_STAND_IN_SCRIPT));

  routes.get('/sandbox/google-pay/sheet', { schema: { querystring: sheetQuerySchema } }, async (request, reply) => {
    const query = request.query;
    if (!allowedOrigin(query.origin)) return refuse(reply, 'Google Pay', 'This site may not use this wallet.', 403);
    if (query.gatewayMerchantId !== GOOGLE_PAY_GATEWAY_MERCHANT_ID)
      return refuse(reply, 'Google Pay', 'This merchant is not set up for this gateway.', 400);
    const cards = GOOGLE_PAY_SANDBOX_CARDS.map(
      (card, index) =>
        `<label class="card"><input type="radio" name="card" value="${card.id}"${index === 0 ? ' checked' : ''}> ${escapeHtml(card.description)}</label>`,
    ).join('\n');
    return sendPage(
      reply,
      'Google Pay',
      `<h1>Google Pay</h1>
<p>${escapeHtml(query.merchantName)} · <strong data-testid="sheet-total">${escapeHtml(query.totalPrice)} ${escapeHtml(query.currencyCode)}</strong></p>
<p class="sandbox">Sandbox wallet: choose a card.</p>
<style>label.card{display:flex;gap:8px;align-items:center;margin:8px 0}label.card input{width:auto;margin:0}fieldset{border:1px solid #ccd;border-radius:6px}</style>
<form method="post" action="/sandbox/google-pay/sheet">
<input type="hidden" name="origin" value="${escapeHtml(query.origin)}">
<input type="hidden" name="gatewayMerchantId" value="${escapeHtml(query.gatewayMerchantId)}">
<input type="hidden" name="billingAddressRequired" value="${query.billingAddressRequired}">
<fieldset><legend>Card</legend>
${cards}
</fieldset>
<button type="submit" name="action" value="pay">Continue</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel</button>
</form>`,
    );
  });

  routes.post('/sandbox/google-pay/sheet', { schema: { body: sheetFormSchema } }, async (request, reply) => {
    const form = request.body;
    if (!allowedOrigin(form.origin)) return refuse(reply, 'Google Pay', 'This site may not use this wallet.', 403);
    if (form.action === 'cancel')
      return sendPage(
        reply,
        'Google Pay',
        '<h1>Canceled</h1>',
        openerScript({ type: GOOGLE_PAY_SHEET_MESSAGE, cancelled: true }, form.origin),
      );
    const card = GOOGLE_PAY_SANDBOX_CARDS.find((candidate) => candidate.id === form.card);
    if (!card) return refuse(reply, 'Google Pay', 'Choose a card.', 400);
    if (form.gatewayMerchantId !== GOOGLE_PAY_GATEWAY_MERCHANT_ID)
      return refuse(reply, 'Google Pay', 'This merchant is not set up for this gateway.', 400);
    // PaymentData of the Google Pay API 2.0.
    const paymentData = {
      apiVersion: 2,
      apiVersionMinor: 0,
      paymentMethodData: {
        type: 'CARD',
        description: card.description.replace(/ \(.*\)$/, ''),
        info: {
          cardNetwork: card.network,
          cardDetails: card.last4,
          ...(form.billingAddressRequired === '1'
            ? { billingAddress: { name: 'Ada Lovelace', countryCode: 'US', postalCode: '10001' } }
            : {}),
        },
        tokenizationData: {
          type: 'PAYMENT_GATEWAY',
          token: mintGooglePayToken({ cardId: card.id, gatewayMerchantId: form.gatewayMerchantId, secret: options.walletSecret }),
        },
      },
    };
    return sendPage(
      reply,
      'Google Pay',
      '<h1 data-testid="result">Done</h1><p>You can close this window.</p>',
      openerScript({ type: GOOGLE_PAY_SHEET_MESSAGE, paymentData }, form.origin),
    );
  });

  // ----- PayPal -------------------------------------------------------------------------------

  routes.get(PAYPAL_STAND_IN_PATH, { schema: { querystring: payPalScriptQuerySchema } }, async (request, reply) => {
    const query = request.query;
    // PayPal answers an unknown client id with an error, so the page's script load fails.
    if (query['client-id'] !== PAYPAL_SANDBOX_CLIENT_ID)
      return reply.status(400).type('text/plain').send('Invalid client-id for the PayPal sandbox');
    const vault = query.vault === 'true';
    if (vault !== (query.intent === 'tokenize'))
      return reply.status(400).type('text/plain').send('vault=true goes with intent=tokenize (and only with it)');
    return script(reply, payPalStandInScript({ clientId: query['client-id'], intent: query.intent, vault, currency: query.currency }));
  });

  const approvalPage = (reply: FastifyReply, approval: PayPalApproval, origin: string, token: string) => {
    const { row, kind } = approval;
    const amount = formatMinorAmount(row.amountValue, row.currency);
    const what =
      kind === 'agreement'
        ? `Set up a billing agreement with ${options.merchantName} for future payments, and pay ${amount} now.`
        : `Pay ${options.merchantName} ${amount}.`;
    return sendPage(
      reply,
      'PayPal',
      `<h1>PayPal</h1>
<p data-testid="paypal-kind" data-kind="${kind}">${escapeHtml(what)}</p>
<p class="sandbox">Sandbox buyer: approve or cancel.</p>
<form method="post" action="/sandbox/paypal/checkout">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<input type="hidden" name="origin" value="${escapeHtml(origin)}">
<button type="submit" name="action" value="approve">Approve</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel</button>
</form>`,
    );
  };

  routes.get('/sandbox/paypal/checkout', { schema: { querystring: payPalPageQuerySchema } }, async (request, reply) => {
    const { token, origin } = request.query;
    if (!allowedOrigin(origin)) return refuse(reply, 'PayPal', 'This site may not use PayPal here.', 403);
    const approval = await executions.findPayPalApproval(token);
    if (!approval) return refuse(reply, 'PayPal', 'This order is not waiting for approval.', 404);
    return approvalPage(reply, approval, origin, token);
  });

  routes.post('/sandbox/paypal/checkout', { schema: { body: payPalFormSchema } }, async (request, reply) => {
    const { token, origin, action } = request.body;
    if (!allowedOrigin(origin)) return refuse(reply, 'PayPal', 'This site may not use PayPal here.', 403);
    const found = action === 'approve' ? await executions.approvePayPal(token) : await executions.findPayPalApproval(token);
    if (!found) return refuse(reply, 'PayPal', 'This order is not waiting for approval.', 404);
    const orderId = found.row.confirmAction?.parameters.orderId;
    const payerId = found.row.confirmAction?.approval?.payerId;
    const message =
      action === 'approve'
        ? { type: PAYPAL_APPROVAL_MESSAGE, token, outcome: 'approved', orderId, payerId }
        : { type: PAYPAL_APPROVAL_MESSAGE, token, outcome: 'cancelled', orderId };
    const text = action === 'approve' ? 'Approved' : 'Canceled';
    return sendPage(
      reply,
      'PayPal',
      `<h1 data-testid="result">${text}</h1><p>You can close this window.</p>`,
      openerScript(message, origin),
    );
  });
}
