import { createHmac } from 'node:crypto';

/**
 * Webhook signature (Stripe-style): header `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Signing the timestamp with the body lets receivers refuse replays older than the tolerance. The
 * check is `verifyGatewayWebhook` in `@roots/contracts/gateway-webhooks`: the one every receiver uses.
 */
export function signWebhook(secret: string, rawBody: string, timestampSeconds: number): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}
