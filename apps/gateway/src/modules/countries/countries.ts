import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Country } from '@roots/contracts/gateway';
import countriesAndTimezones from 'countries-and-timezones';
import isoCountries from 'i18n-iso-countries';

const require = createRequire(import.meta.url);

type PostalFormat = { ValidationRegex?: string; RedundantCharacters?: string };
type PostalCountry = { alpha2: string; postalCodeFormat?: string };

/**
 * The countries asset (checkout-spec §3): every ISO 3166-1 country from i18n-iso-countries (names,
 * alpha-3), countries-and-timezones (time zones) and postal-codes-js (postal code formats).
 * `postalCodeRegex` is anchored and applies after removing spaces and hyphens.
 */
export function buildCountries(): Country[] {
  const postal = require('postal-codes-js/generated/postal-codes-alpha2.json') as Record<string, PostalCountry>;
  const formatCache = new Map<string, PostalFormat>();
  const formatOf = (file: string): PostalFormat => {
    let format = formatCache.get(file);
    if (!format) {
      format = require(`postal-codes-js/formats/${file}`) as PostalFormat;
      formatCache.set(file, format);
    }
    return format;
  };
  return Object.keys(isoCountries.getAlpha2Codes())
    .map((code): Country => {
      const file = postal[code]?.postalCodeFormat;
      const regex = file ? formatOf(file).ValidationRegex : undefined;
      return {
        code,
        name: isoCountries.getName(code, 'en', { select: 'official' }) ?? code,
        iso3: isoCountries.alpha2ToAlpha3(code) ?? code,
        timezones: countriesAndTimezones.getCountry(code)?.timezones ?? [],
        showPostalCode: regex !== undefined,
        ...(regex ? { postalCodeRegex: `^(?:${regex.replace(/^\^/, '').replace(/\$$/, '')})$` } : {}),
      };
    })
    .sort((a, b) => a.code.localeCompare(b.code));
}

export type CountriesAsset = { body: string; etag: string };

let cached: CountriesAsset | undefined;

/** Built once per process (about 250 entries), served with an ETag. */
export function countriesAsset(): CountriesAsset {
  if (!cached) {
    const body = JSON.stringify(buildCountries());
    cached = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }
  return cached;
}
