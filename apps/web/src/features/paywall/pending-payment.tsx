import { MESSAGES } from '@roots/contracts/messages';
import { useTranslation } from 'react-i18next';
import { usePendingPurchase, type PendingPurchaseCalls } from './use-pending-purchase';

type PendingPaymentProps = {
  /** The buyer's email: the receipt, and the refund notice of a late first payment, go there. */
  email: string;
  calls: PendingPurchaseCalls;
  onPurchased: (subscriptionId: string) => void;
  /** Back to the checkout of the same plan, for a new payment (another card, another method). */
  onPayAnotherWay: () => void;
};

/**
 * The paywall while a payment waits for the customer's bank (product-spec §2, issue 24), keyed by
 * its execution. It says what happens next and what the customer can do: check again (the answer is
 * shown), or pay another way, with the promise that a first payment the bank confirms late is
 * refunded automatically. An ended payment says how it ended and offers to pay again.
 */
export function PendingPayment({ email, calls, onPurchased, onPayAnotherWay }: PendingPaymentProps) {
  const { t } = useTranslation();
  const { state, checking, checkNow } = usePendingPurchase(calls, onPurchased);

  if (state.status === 'not-paid') {
    const copy = {
      failed: { title: t('screens.paywall.notPaidTitle'), text: t('screens.paywall.notPaidText') },
      expired: { title: t('screens.paywall.expiredTitle'), text: t('screens.paywall.expiredText') },
      refunded: { title: t('screens.paywall.refundedTitle'), text: t('screens.paywall.refundedText', { email }) },
    }[state.reason];
    return (
      <section
        className="checkout-slot payment-pending"
        role="status"
        aria-live="polite"
        data-testid="payment-pending"
        data-state={state.reason}
      >
        <h2>{copy.title}</h2>
        <p>{copy.text}</p>
        <button type="button" className="button button--primary" onClick={onPayAnotherWay}>
          {t('screens.paywall.tryAgain')}
        </button>
      </section>
    );
  }
  return (
    <section className="checkout-slot payment-pending" role="status" aria-live="polite" data-testid="payment-pending" data-state="pending">
      <h2>{MESSAGES.paymentPending}</h2>
      <p>{t('screens.paywall.pendingText')}</p>
      <p>{t('screens.paywall.lateConfirmation', { email })}</p>
      {state.lastCheck ? (
        <p className="payment-pending__check" data-testid="pending-check">
          {t(state.lastCheck === 'pending' ? 'screens.paywall.stillPending' : 'screens.paywall.checkUnavailable')}
        </p>
      ) : null}
      <div className="payment-pending__actions">
        <button type="button" className="button button--primary" onClick={onPayAnotherWay}>
          {t('screens.paywall.payAnotherWay')}
        </button>
        <button type="button" className="button button--link" onClick={checkNow} disabled={checking} aria-busy={checking}>
          {t('screens.paywall.checkNow')}
        </button>
      </div>
    </section>
  );
}
