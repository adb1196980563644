import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { ChargesService } from '../charges/charges.service';
import type { EmailsService } from '../emails/emails.service';
import type { GatewayClient } from '../gateway/gateway-client';
import type { SubscriptionLifecycle } from '../lifecycle/subscription-lifecycle';
import type { SubscriptionsRepository } from './subscriptions.repository';

/** What the subscription, billing and cancellation services share. */
export type BillingContext = {
  db: Db;
  repository: SubscriptionsRepository;
  /** The only writer of subscription state and access (issue 23). */
  lifecycle: SubscriptionLifecycle;
  /** The charge ledger: every money movement goes through it (ADR 105). */
  charges: ChargesService;
  gateway: GatewayClient;
  emails: EmailsService;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
};
