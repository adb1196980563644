import { APP_VERSION, type PublicConfig } from '@roots/contracts';
import { contradictedClaims, type ClaimWarning } from '@roots/contracts/plan-claims';
import type { Config } from '../../config/env';

/** The plan a visitor sees first: the landing's claims are checked against it. */
function defaultPlan(config: Config) {
  return config.catalog.plans.find((plan) => plan.id === config.catalog.defaultPlanId) ?? config.catalog.plans[0]!;
}

export function buildPublicConfig(config: Config): PublicConfig {
  return {
    slug: config.PRODUCT_SLUG,
    productName: config.PRODUCT_NAME,
    version: APP_VERSION,
    // Every plan claim is checked against the plan it is shown with, in the page (ADR 100, ADR 148).
    copy: config.copy,
    gatewayOrigin: new URL(config.GATEWAY_URL).origin,
    trackingEnabled: config.TRACKING_ENABLED,
    guaranteeDays: config.MONEY_BACK_GUARANTEE_DAYS,
    links: { cookies: config.COOKIE_LINK, privacy: config.PRIVACY_LINK, terms: config.TERMS_LINK },
    legal: {
      operatorName: config.LEGAL_OPERATOR_NAME,
      operatorAddress: config.LEGAL_OPERATOR_ADDRESS ?? null,
      contactEmail: config.LEGAL_CONTACT_EMAIL,
    },
    subscriptionApi: { production: config.SUBSCRIPTION_API_URL ?? '', staging: config.SUBSCRIPTION_API_STAGING_URL ?? '' },
  };
}

/**
 * Marketing claims the funnel will hide because they are untrue of a plan they would be shown
 * with (it says the plan-derived sentence instead): a key set in PRODUCT_COPY is checked against
 * every plan, a default one against the plan a visitor sees first. Start-up prints each.
 */
export function copyWarnings(config: Config): ClaimWarning[] {
  const context = { guaranteeDays: config.MONEY_BACK_GUARANTEE_DAYS };
  const configured = new Set(Object.keys(config.PRODUCT_COPY ?? {}));
  return [
    ...contradictedClaims(config.copy, config.catalog.plans, context).filter((warning) => configured.has(warning.key)),
    ...contradictedClaims(config.copy, [defaultPlan(config)], context).filter((warning) => !configured.has(warning.key)),
  ];
}

/** One line per warning, e.g. `PRODUCT_COPY.trialClaim "7-day trial" is hidden with plan roots_3d1_7d2499: …`. */
export function formatCopyWarning(warning: ClaimWarning): string {
  return `PRODUCT_COPY.${warning.key} "${warning.text}" is not shown with plan ${warning.planId}: ${warning.problems.join('; ')}`;
}
