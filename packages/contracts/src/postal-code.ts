/**
 * Postal codes against the countries asset (checkout-spec §3, §5), without zod so the SDK can
 * import it at no bundle cost: `@roots/contracts/postal-code`.
 *
 * The asset's `postalCodeRegex` applies to the code with its redundant characters removed (spaces
 * and hyphens, as the postal-code formats the gateway builds it from define them), so people may
 * type `SW1A 1AA`, `12345-6789` or `01310-100` as they usually write them.
 */

/** Characters a person types inside a postal code that the asset's patterns leave out. */
export const POSTAL_CODE_REDUNDANT_CHARACTERS = /[\s-]+/g;

/** The postal code as the asset's regex reads it: trimmed, spaces and hyphens removed. */
export function normalizePostalCode(value: string): string {
  return value.trim().replace(POSTAL_CODE_REDUNDANT_CHARACTERS, '');
}

/**
 * A postal code is valid if non-empty and, when the country has a regex, matching it after
 * {@link normalizePostalCode} (case-insensitive).
 * @example isPostalCodeValid('SW1A 1AA', gb) // true
 */
export function isPostalCodeValid(value: string, country: { postalCodeRegex?: string | undefined }): boolean {
  const normalized = normalizePostalCode(value);
  if (!normalized) return false;
  if (!country.postalCodeRegex) return true;
  try {
    return new RegExp(country.postalCodeRegex, 'i').test(normalized);
  } catch {
    // A pattern this engine cannot compile must not block a shopper: the gateway checks again.
    return true;
  }
}
