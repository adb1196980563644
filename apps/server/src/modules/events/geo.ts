import { createRequire } from 'node:module';
import type { FastifyRequest } from 'fastify';

type GeoIp = { lookup(ip: string): { country: string } | null };

let geoip: GeoIp | undefined;

/** geoip-lite reads ~100 MB of offline data synchronously: load it on first use, not at start. */
function database(): GeoIp {
  geoip ??= createRequire(import.meta.url)('geoip-lite') as GeoIp;
  return geoip;
}

/**
 * The caller's country (ISO 3166-1 alpha-2, or '' when unknown): the trusted proxy's header when
 * one is configured (COUNTRY_HEADER with TRUST_PROXY), else the offline GeoIP database.
 */
export function countryOf(request: FastifyRequest, options: { countryHeader: string | undefined; trustProxy: boolean }): string {
  if (options.countryHeader && options.trustProxy) {
    const value = request.headers[options.countryHeader];
    const country = (Array.isArray(value) ? value[0] : value)?.trim().toUpperCase();
    if (country && /^[A-Z]{2}$/.test(country) && country !== 'XX') return country;
  }
  try {
    return database().lookup(request.ip)?.country ?? '';
  } catch {
    return '';
  }
}
