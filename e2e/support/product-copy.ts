/**
 * Marketing copy the product under test is configured with (PRODUCT_COPY): the trial claim of
 * product-spec §1, which no plan of the catalog has, so every journey runs with a claim the funnel
 * must hide (issue 14).
 */
export const E2E_PRODUCT_COPY = { trialClaim: '7-day trial' } as const;
