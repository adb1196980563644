import { cardScenario, type CardScenario } from '../../test-cards/test-cards';
import type { CardPayment, PaymentProcessor, ProcessorResult, RefundResult, StoredCharge } from '../processor';

/**
 * The sandbox (default): the test-card table and triggers decide (README "Test cards"), exactly as
 * before the seam. Nothing leaves the gateway; refunds and cancels always succeed.
 */
export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox' as const;

  constructor(private readonly options: { slowAuthPolls: number }) {}

  async authorize(input: CardPayment): Promise<ProcessorResult> {
    const scenario = cardScenario({ number: input.card.number, holderName: input.card.holderName, amountValue: input.amount.value });
    return this.resultOf(scenario);
  }

  /** The sandbox's challenge is its one-time-code page, completed by the executions service. */
  async finishChallenge(): Promise<ProcessorResult> {
    throw new Error('the sandbox completes its own 3-D Secure page');
  }

  /** No shopper: 3-D Secure is exempt (a challenge card's planned decline still declines), a slow card settles at once. */
  async chargeStored(input: StoredCharge): Promise<ProcessorResult> {
    const scenario = cardScenario({
      number: input.card.number,
      holderName: input.card.holderName,
      amountValue: input.amount.value,
      merchantInitiated: true,
    });
    switch (scenario.kind) {
      case 'decline':
        return { kind: 'refused', code: scenario.code };
      case 'challenge':
        return scenario.after ? { kind: 'refused', code: scenario.after } : { kind: 'authorised' };
      case 'dispute':
        return { kind: 'authorised', dispute: scenario.reason };
      default:
        return { kind: 'authorised' };
    }
  }

  async refund(): Promise<RefundResult> {
    return {};
  }

  async cancel(): Promise<void> {}

  /** The sandbox always answers at once: nothing is ever left to read. */
  async read(): Promise<ProcessorResult> {
    throw new Error('the sandbox has no payment of unknown outcome');
  }

  private resultOf(scenario: CardScenario): ProcessorResult {
    switch (scenario.kind) {
      case 'success':
      case 'frictionless':
        return { kind: 'authorised' };
      case 'dispute':
        return { kind: 'authorised', dispute: scenario.reason };
      case 'decline':
        return { kind: 'refused', code: scenario.code };
      case 'slow':
        return this.options.slowAuthPolls === 0
          ? { kind: 'authorised' }
          : { kind: 'processing', settleAfterPolls: this.options.slowAuthPolls };
      case 'challenge':
        return { kind: 'challenge', ...(scenario.after ? { after: scenario.after } : {}) };
      default: {
        const exhaustive: never = scenario;
        return exhaustive;
      }
    }
  }
}
