import type { GatewayWindowMessage } from '@roots/contracts/gateway';
import { GATEWAY_WINDOW_MESSAGE_TYPE } from '@roots/contracts/gateway-constants';

const SOURCES = ['threeDS', 'pix', 'hpp'] as const;
const OUTCOMES = ['success', 'cancel', 'error', 'pending'] as const;

/**
 * Accepts the completion message of the 3-D Secure, pix and hosted pages (contracts
 * `gatewayWindowMessageSchema`) only from the gateway origin, only from the window we opened (the
 * popup), and for the execution we wait on.
 */
export function acceptGatewayWindowMessage(
  event: Pick<MessageEvent, 'origin' | 'data' | 'source'>,
  expected: { origin: string; executionId: string; source: MessageEventSource | null | undefined },
): GatewayWindowMessage | undefined {
  if (event.origin !== expected.origin) return undefined;
  if (!expected.source || event.source !== expected.source) return undefined;
  const data = event.data as Partial<GatewayWindowMessage> | null;
  if (typeof data !== 'object' || data === null || data.type !== GATEWAY_WINDOW_MESSAGE_TYPE) return undefined;
  if (data.executionId !== expected.executionId || typeof data.status !== 'string') return undefined;
  if (!SOURCES.includes(data.source as (typeof SOURCES)[number]) || !OUTCOMES.includes(data.outcome as (typeof OUTCOMES)[number]))
    return undefined;
  return data as GatewayWindowMessage;
}
