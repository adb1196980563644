import type { ResolvedClientConfig } from '../core/config/client-config';
import type { GatewayClient } from '../core/http/gateway-client';
import type { Logger } from '../core/events/logger';
import type { BearerTokenCache } from '../core/security/bearer-token-cache';
import type { EventEmitter } from '../core/events/event-emitter';
import type { ContainerType } from '../core/config/collect-validation';
import type { CollectContainer } from '../elements/collect-container';

/** Events of the client as a whole (every drop-in and container of it). */
export type SessionEvents = { sessionExpired: Record<string, never> };

/** What every element of one initialised client shares. */
export type CheckoutContext = {
  config: ResolvedClientConfig;
  api: GatewayClient;
  tokens: BearerTokenCache;
  sessionEvents: EventEmitter<SessionEvents>;
  logger: Logger;
  window: Window & typeof globalThis;
  document: Document;
  container(type?: ContainerType, options?: { layout: number[] }): CollectContainer;
};
