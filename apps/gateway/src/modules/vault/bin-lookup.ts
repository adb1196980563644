import type { BinLookupResult } from '@roots/contracts/gateway';
import countries from 'i18n-iso-countries';
import { detectNetwork } from '@roots/secure-fields/card-rules';

/** Sandbox issuer country when no test BIN says otherwise. */
export const DEFAULT_ISSUER_COUNTRY = 'US';

/**
 * Issuer country of a BIN. Sandbox rule: an 8-digit BIN `40000CCC` is issued in the country whose
 * ISO 3166 numeric code is CCC (4000007600000001 → 076 → BR); any other BIN is US.
 */
export function issuerCountryOf(bin: string): string {
  const match = /^40000(\d{3})/.exec(bin);
  if (match?.[1]) return countries.numericToAlpha2(match[1]) ?? DEFAULT_ISSUER_COUNTRY;
  return DEFAULT_ISSUER_COUNTRY;
}

/** Digits of a BIN as checkout-spec §5 defines it: dashes, spaces and X removed, at most 8. */
export function normaliseBin(raw: string): string {
  return raw.replace(/[\s\-Xx]/g, '').slice(0, 8);
}

export function lookupBin(raw: string): BinLookupResult {
  const bin = normaliseBin(raw);
  const network = detectNetwork(bin);
  return { bin, ...(network ? { network } : {}), issuerCountry: { code: issuerCountryOf(bin) } };
}
