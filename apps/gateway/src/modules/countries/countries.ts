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
 * `postalCodeRegex` is anchored and applies after removing spaces and hyphens
 * (`normalizePostalCode` of `@roots/contracts/postal-code`, which the SDK uses too): a format
 * whose pattern spells a separator out (PL `NN-NNN`, PT `NNNN-NNN`) has it dropped here.
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
        ...(regex ? { postalCodeRegex: `^(?:${withoutSeparators(regex.replace(/^\^/, '').replace(/\$$/, ''))})$` } : {}),
      };
    })
    .sort((a, b) => a.code.localeCompare(b.code));
}

/**
 * A pattern for postal codes with their spaces and hyphens removed: drops the literal ' ' and '-'
 * outside character classes (inside a class a '-' is a range, and a stray separator class such as
 * `[\s\-]?` still matches nothing harmlessly).
 */
export function withoutSeparators(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index]!;
    if (char === '\\') {
      out += char + (pattern[index + 1] ?? '');
      index += 1;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (!inClass && (char === '-' || char === ' ')) continue;
    out += char;
  }
  return out;
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
