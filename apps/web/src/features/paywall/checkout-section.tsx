import type { Plan } from '@roots/contracts';
import type { Disclosure } from '@roots/contracts/disclosure';
import { MESSAGES } from '@roots/contracts/messages';
import type { InitSessionResponse } from '@roots/contracts/subscriptions';
import { RootsCheckout } from '@roots/checkout/react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api-client';
import { usePublicConfig } from '../../lib/public-config-context';
import { useResource } from '../../lib/use-resource';
import { createSubscription } from './api/create-subscription';
import { initSession } from './api/init-session';
import { refreshSessionToken } from './api/refresh-session-token';

export type PurchaseResult = { subscriptionId: string };

// The attribution record's helper brings zod (contracts/events, ADR 081): fetched once the drop-in
// is up, so it is there when the payment succeeds without weighing on the drop-in's start.
const loadTracking = () => import('../../lib/tracking');

type CheckoutSectionProps = {
  plan: Plan;
  email: string;
  disclosure: Disclosure;
  onPurchased: (result: PurchaseResult) => void;
  onPurchaseError: (message: string) => void;
};

/**
 * The embedded drop-in for the plan's first charge. The payment client is created here, so only
 * the subscription route ever initialises it; the drop-in mounts 50 ms after the route opens.
 */
export function CheckoutSection({ plan, email, disclosure, onPurchased, onPurchaseError }: CheckoutSectionProps) {
  const { slug } = usePublicConfig();
  const started = useResource(plan.id, () => initSession(plan.id));
  const session: InitSessionResponse | null = started.status === 'ready' ? started.data : null;
  const [purchaseError, setError] = useState<string | null>(null);
  const error = purchaseError ?? (started.status === 'error' ? errorMessage(started.error) : null);

  useEffect(() => {
    if (session) void loadTracking().catch(() => undefined);
  }, [session]);

  const finish = async (executionId: string) => {
    try {
      const { currentAttribution } = await loadTracking();
      const { id } = await createSubscription({
        planId: plan.id,
        email,
        executionId,
        consent: { terms_text: disclosure.text, terms_version: disclosure.version },
        attribution: currentAttribution(slug),
      });
      onPurchased({ subscriptionId: id });
    } catch (reason) {
      const message = errorMessage(reason, MESSAGES.cantCreateSubscription);
      setError(message);
      onPurchaseError(message);
    }
  };

  if (error) {
    return (
      <p className="field-error" role="alert" data-testid="purchase-error">
        {error}
      </p>
    );
  }
  if (!session) return <div className="checkout-slot" aria-busy="true" />;
  return (
    <RootsCheckout
      className="checkout-slot"
      session={session}
      getBearerToken={() => refreshSessionToken(session)}
      // Renewals charge the stored card, so it is always stored (the disclosure says so); only
      // methods that can be charged again are offered, and the card is preselected.
      dropin={{
        payButtonLabel: disclosure.payButton,
        paymentMethods: ['card', 'applePay'],
        preselect: 'card',
        card: { alwaysStoreInstrument: true },
      }}
      onSuccess={({ execution }) => void finish(execution.id)}
      onFailure={({ message }) => onPurchaseError(message)}
    />
  );
}
