import type { FastifyBaseLogger } from 'fastify';
import type { ProcessorConfig } from '../../config/env';
import { AdyenProcessor } from './adyen/adyen-processor';
import type { PaymentProcessor } from './processor';
import { SandboxProcessor } from './sandbox/sandbox-processor';

/** The configured processor (GATEWAY_PROCESSOR): one case per folder beside this file. */
export function createProcessor(
  config: ProcessorConfig,
  deps: { log: FastifyBaseLogger; slowAuthPolls: number; shopperReference: (holderReference: string) => string },
): PaymentProcessor {
  switch (config.name) {
    case 'sandbox':
      return new SandboxProcessor({ slowAuthPolls: deps.slowAuthPolls });
    case 'adyen':
      return new AdyenProcessor(config, { log: deps.log, shopperReference: deps.shopperReference });
    default: {
      const exhaustive: never = config;
      return exhaustive;
    }
  }
}
