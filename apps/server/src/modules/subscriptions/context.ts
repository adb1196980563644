import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { ChargesService } from '../charges/charges.service';
import type { EmailsService } from '../emails/emails.service';
import type { GatewayClient } from '../gateway/gateway-client';
import type { SubscriptionsRepository } from './subscriptions.repository';

/** What the subscription, billing and cancellation services share. */
export type BillingContext = {
  db: Db;
  repository: SubscriptionsRepository;
  /** The charge ledger: every money movement goes through it (ADR 105). */
  charges: ChargesService;
  gateway: GatewayClient;
  emails: EmailsService;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
};

/** Test-only crash points (FAULT_INJECTION, NODE_ENV=test): the process dies at once, as on a power cut. */
export function crashPoint(config: Config, point: NonNullable<Config['FAULT_INJECTION']>): void {
  if (config.NODE_ENV === 'test' && config.FAULT_INJECTION === point) process.kill(process.pid, 'SIGKILL');
}
