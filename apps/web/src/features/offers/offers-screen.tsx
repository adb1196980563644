import type { Plan, PlanCatalog } from '@roots/contracts';
import { formatUsd } from '@roots/contracts/disclosure';
import { MESSAGES } from '@roots/contracts/messages';
import { struckPrice } from '@roots/contracts/plan-claims';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Dialog } from '../../components/ui/dialog';
import { UnknownPlanOverlay } from '../../components/ui/unknown-plan-overlay';
import { accessKindForPlan, coveredAccess, planGives, type AccessKind } from '@roots/contracts/access';
import { getPlans, errorMessage, FALLBACK_ERROR } from '../../lib/api-client';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { readSessionValue } from '../../lib/session-keys';
import { track } from '../../lib/track';
import { loadAttribution } from '../../lib/tracking';
import { buyAddOn } from './api/buy-add-on';
import { loadEntitlements } from './api/load-entitlements';
import { resolveOffers, type Offer } from './offer-plans';

type OfferState = 'idle' | 'buying' | 'bought';

/** The pack's price; a struck previous price and saving only where the arithmetic holds. */
function OfferPrice({ plan }: { plan: Plan }) {
  const struck = struckPrice(plan);
  return (
    <>
      {struck && <s aria-label={`Previous price ${formatUsd(struck.previous)}`}>{formatUsd(struck.previous)}</s>}{' '}
      <strong>{formatUsd(plan.sum)}</strong>
      {struck && <span> −{struck.percentOff}%</span>}
    </>
  );
}

/** One pack with its price and a one-click buy button (or the bought note). */
function OfferCard({ offer, state, onBuy }: { offer: Offer; state: OfferState | undefined; onBuy: () => void }) {
  const { t } = useTranslation();
  return (
    <li className="plan-card">
      <h2>{offer.plan.name}</h2>
      <p>{offer.plan.name_full}</p>
      {/* What the pack gives, in one line from the product data (issue 35, ADR 194). */}
      <p className="plan-card__gives" data-testid="offer-gives">
        {planGives(offer.plan.id)}
      </p>
      <p className="plan-card__price">
        <OfferPrice plan={offer.plan} /> · {t('screens.offers.oneTime')}
      </p>
      {state === 'bought' ? (
        <p role="status">{t('screens.offers.bought')}</p>
      ) : (
        <button type="button" className="button button--primary" disabled={state === 'buying'} onClick={onBuy}>
          {state === 'buying' ? 'Loading' : t('screens.offers.buy', { price: formatUsd(offer.plan.sum) })}
        </button>
      )}
    </li>
  );
}

/** `/{slug}/offers`: one-time packs bought in one click on the stored instrument, then sign-in. */
export function OffersScreen() {
  const { t } = useTranslation();
  const { slug } = usePublicConfig();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [catalog, setCatalog] = useState<PlanCatalog | null>(null);
  /** What this browser or account owns already, with what it includes (issue 23): never offered again. */
  const [owned, setOwned] = useState<ReadonlySet<AccessKind>>(new Set());
  const [states, setStates] = useState<Record<string, OfferState>>({});
  const [error, setError] = useState<string | null>(null);
  const [confirmSkip, setConfirmSkip] = useState(false);

  useEffect(() => track(slug, 'offers'), [slug]);

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([
      getPlans(controller.signal),
      loadEntitlements(controller.signal).catch(() => ({
        plans: [],
        access: [],
      })),
    ])
      .then(([plans, entitlements]) => {
        setOwned(new Set(entitlements.access));
        setCatalog(plans);
      })
      .catch(() => !controller.signal.aborted && setError(FALLBACK_ERROR));
    return () => controller.abort();
  }, []);

  const { offers, lastChance, unknown } = useMemo(() => {
    if (!catalog) return { offers: [], lastChance: [], unknown: [] };
    const resolved = resolveOffers(search, catalog, slug);
    // Bought here stays on the page (with its note); what is owned or included otherwise is not offered.
    const wanted = (offer: Offer) => states[offer.family] === 'bought' || !owned.has(accessKindForPlan(offer.plan.id));
    return { ...resolved, offers: resolved.offers.filter(wanted), lastChance: resolved.lastChance.filter(wanted) };
  }, [catalog, search, slug, owned, states]);
  // The purchase goes to sign-in as vSubscriptionId, so it is linked to whoever signs in, even
  // with another address than the one paid with (a private-relay email, issue 14).
  const next = () => {
    const query = new URLSearchParams(location.search);
    const subscriptionId = readSessionValue('subscriptionId');
    if (subscriptionId) query.set('vSubscriptionId', subscriptionId);
    const text = query.toString();
    void navigate(`${productPath(slug, ROUTE_PATHS.signIn)}${text ? `?${text}` : ''}`);
  };

  const buy = async (offer: Offer) => {
    setError(null);
    const email = readSessionValue('userEmail');
    const subscriptionId = readSessionValue('subscriptionId');
    if (!email || !subscriptionId) {
      setError(MESSAGES.noSubscriptionData);
      return;
    }
    setStates((s) => ({ ...s, [offer.family]: 'buying' }));
    try {
      await buyAddOn({
        plan_id: offer.plan.id,
        email,
        subscription_id: subscriptionId,
        attribution: await loadAttribution(slug),
      });
      setStates((s) => ({ ...s, [offer.family]: 'bought' }));
      // What the pack includes is no longer offered (the Ultimate Pack holds the others).
      setOwned((current) => new Set([...current, ...coveredAccess([accessKindForPlan(offer.plan.id)])]));
    } catch (reason) {
      setStates((s) => ({ ...s, [offer.family]: 'idle' }));
      setError(errorMessage(reason));
    }
  };

  return (
    <>
      <main className="screen offers" data-testid="offers-screen">
        <h1 className="screen__title">{t('screens.titles.offers')}</h1>
        {/* Nothing left to offer (a pack bought already, issue 35): no words about packs that are not there. */}
        <p data-testid="offers-intro">{catalog && offers.length === 0 ? t('screens.offers.none') : t('screens.offers.intro')}</p>
        <ul className="offer-list">
          {offers.map((offer) => (
            <OfferCard key={offer.family} offer={offer} state={states[offer.family]} onBuy={() => void buy(offer)} />
          ))}
        </ul>
        {error && !confirmSkip && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <button
          type="button"
          className="button button--secondary"
          onClick={() => (search.get('sure_popup') === 'true' && !confirmSkip ? setConfirmSkip(true) : next())}
        >
          {t('screens.offers.continue')}
        </button>
        {confirmSkip && (
          <Dialog
            role="alertdialog"
            title={t('screens.offers.sureTitle')}
            description={t('screens.offers.sureText')}
            onDismiss={() => setConfirmSkip(false)}
            testId="sure-popup"
            actions={
              <>
                <button type="button" className="button button--primary" onClick={() => setConfirmSkip(false)}>
                  {t('screens.offers.sureStay')}
                </button>
                <button type="button" className="button button--secondary" onClick={next}>
                  {t('screens.offers.sureLeave')}
                </button>
              </>
            }
          >
            {/* The `_s2` packs: a last, lower price for what was not bought on the page (ADR 131). */}
            {lastChance.some((offer) => states[offer.family] !== 'bought') && (
              <ul className="offer-list" aria-label={t('screens.offers.lastChance')}>
                {lastChance.map((offer) => (
                  <OfferCard key={offer.family} offer={offer} state={states[offer.family]} onBuy={() => void buy(offer)} />
                ))}
              </ul>
            )}
            {error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
          </Dialog>
        )}
      </main>
      <UnknownPlanOverlay
        unknown={unknown}
        exit={
          <button type="button" className="button button--primary" onClick={next}>
            {t('screens.offers.continue')}
          </button>
        }
      />
    </>
  );
}
