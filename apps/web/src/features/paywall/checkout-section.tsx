import type { Plan } from '@roots/contracts';
import type { Disclosure } from '@roots/contracts/disclosure';
import { MESSAGES } from '@roots/contracts/messages';
import type { InitSessionResponse } from '@roots/contracts/subscriptions';
import type { ApplePayDetails } from '@roots/checkout';
import { RootsCheckout } from '@roots/checkout/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage, RequestError } from '../../lib/api-client';
import { CHECKOUT_FAILURE_WORDS } from '../../lib/checkout-words';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { readSessionValue } from '../../lib/session-keys';
import { useQuizStore } from '../../lib/onboarding-store';
import { usePublicConfig } from '../../lib/public-config-context';
import { useResource } from '../../lib/use-resource';
import { createSubscription } from './api/create-subscription';
import { validateApplePayMerchant } from './api/validate-apple-pay-merchant';
import { initSession } from './api/init-session';
import { refreshSessionToken } from '../../lib/refresh-session-token';
import { paymentStatus } from './api/payment-status';
import { PendingPayment } from './pending-payment';

export type PurchaseResult = { subscriptionId: string };

// The attribution record's helper brings zod (contracts/events, ADR 081): fetched once the drop-in
// is up, so it is there when the payment succeeds without weighing on the drop-in's start.
const loadTracking = () => import('../../lib/tracking');
const loadAuthSession = () => import('../../lib/auth-session');

type CheckoutSectionProps = {
  plan: Plan;
  email: string;
  disclosure: Disclosure;
  onPurchased: (result: PurchaseResult) => void;
  onPurchaseError: (message: string) => void;
  /** The plan is owned already (issue 23): the page drops its payment terms, there is nothing to pay. */
  onOwned?: () => void;
};

/** A payment the drop-in reported, waiting to become a subscription. */
type Paid = { executionId: string; wallet?: ApplePayDetails | undefined };

/**
 * The embedded drop-in for the plan's first charge. The payment client is created here, so only
 * the subscription route ever initialises it; the drop-in mounts 50 ms after the route opens. A
 * pending payment is waited for here, with what happens next said on screen (product-spec §2).
 */
export function CheckoutSection({ plan, email, disclosure, onPurchased, onPurchaseError, onOwned }: CheckoutSectionProps) {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const [search] = useSearchParams();
  // A new payment session for each try: a settled execution is never paid twice.
  const [attempt, setAttempt] = useState(0);
  const started = useResource(`${plan.id}:${attempt}`, () => initSession(plan.id, email));
  const session: InitSessionResponse | null = started.status === 'ready' ? started.data : null;
  const [purchaseError, setError] = useState<string | null>(null);
  // A payment for a plan beside the one this browser or account has (ADR 196): refunded, and said.
  const [refundedOwned, setRefundedOwned] = useState<string | null>(null);
  const [pending, setPending] = useState<Paid | null>(null);
  const error = purchaseError ?? (started.status === 'error' ? errorMessage(started.error) : null);
  const selectPaymentMethod = useQuizStore((state) => state.selectPaymentMethod);
  const setNames = useQuizStore((state) => state.setNames);

  useEffect(() => {
    if (session) void loadTracking().catch(() => undefined);
  }, [session]);

  const owned = started.status === 'error' && started.error instanceof RequestError && started.error.code === 'ALREADY_OWNED';
  useEffect(() => {
    if (owned) onOwned?.();
  }, [owned, onOwned]);

  /** The create call of this purchase (product-spec §7): who is buying and with what decide which. */
  const create = async ({ executionId, wallet }: Paid) => {
    const [{ currentAttribution }, { fetchSessionState }] = await Promise.all([loadTracking(), loadAuthSession()]);
    const me = await fetchSessionState().catch(() => null);
    return createSubscription({
      planId: plan.id,
      email,
      executionId,
      consent: { terms_text: disclosure.text, terms_version: disclosure.version },
      attribution: currentAttribution(slug),
      wallet,
      vault: search.get('vault') ?? undefined,
      signedInUserId: me?.user.uid,
    });
  };

  const finish = async (paid: Paid) => {
    try {
      const { id } = await create(paid);
      onPurchased({ subscriptionId: id });
    } catch (reason) {
      const message = errorMessage(reason, MESSAGES.cantCreateSubscription);
      if (reason instanceof RequestError && reason.code === 'ALREADY_OWNED') {
        setRefundedOwned(message);
        onOwned?.();
        return;
      }
      setError(message);
      onPurchaseError(message);
    }
  };

  const walletNames = (wallet: ApplePayDetails | undefined) => {
    if (wallet) setNames({ firstName: wallet.address.first_name, lastName: wallet.address.last_name });
  };

  if (pending) {
    return (
      <PendingPayment
        key={pending.executionId}
        email={email}
        calls={{ create: () => create(pending), status: () => paymentStatus({ executionId: pending.executionId, email }) }}
        onPurchased={(id) => onPurchased({ subscriptionId: id })}
        onPayAnotherWay={() => {
          // A new payment session for the same plan; the funnel's state stays in this tab.
          setPending(null);
          setAttempt((value) => value + 1);
        }}
      />
    );
  }
  if (refundedOwned) {
    return (
      <section className="checkout-slot" role="status" data-testid="plan-owned-refunded">
        <h2>{t('screens.paywall.refundedOwnedTitle')}</h2>
        <p>{refundedOwned}</p>
        <Link className="button button--primary" to={productPath(slug, ROUTE_PATHS.signIn)}>
          {t('screens.paywall.openAccount')}
        </Link>
      </section>
    );
  }
  if (owned) {
    // Back after paying, or a second tab: the plan is this customer's already (issue 23).
    const subscriptionId = readSessionValue('subscriptionId');
    const query = subscriptionId ? `?vSubscriptionId=${encodeURIComponent(subscriptionId)}` : '';
    return (
      <section className="checkout-slot" role="status" data-testid="plan-owned">
        <h2>{t('screens.paywall.ownedTitle')}</h2>
        <p>{t('screens.paywall.ownedText')}</p>
        <Link className="button button--primary" to={`${productPath(slug, ROUTE_PATHS.signIn)}${query}`}>
          {t('screens.paywall.openAccount')}
        </Link>
      </section>
    );
  }
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
      // Renewals and one-click offers charge the stored card or wallet card, so both are always
      // stored (the disclosure says so); only methods that can be charged again are offered.
      dropin={{
        payButtonLabel: disclosure.payButton,
        paymentMethods: ['card', 'applePay'],
        preselect: 'card',
        card: { alwaysStoreInstrument: true },
        applePay: { storeInstrument: true, validateMerchant: validateApplePayMerchant },
        translations: CHECKOUT_FAILURE_WORDS,
      }}
      onActivate={({ code }) => selectPaymentMethod(code === 'applePay' ? 'apple' : 'card')}
      onSuccess={({ execution, wallet }) => {
        walletNames(wallet);
        void finish({ executionId: execution.id, wallet });
      }}
      onPending={({ execution, wallet }) => {
        walletNames(wallet);
        setPending({ executionId: execution.id, wallet });
      }}
      onFailure={({ message }) => onPurchaseError(message)}
    />
  );
}
