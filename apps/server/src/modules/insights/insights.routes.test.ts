import {
  biorhythmChartSchema,
  culturalInsightsResponseSchema,
  horoscopeResponseSchema,
  populationInsightsSchema,
} from '@roots/contracts/insights';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsApp } from '../../app';
import type { Database } from '../../db/database';
import { buildTestApp, openTestDatabase } from '../../test/helpers';

describe('insights and face-check limits over inject', () => {
  let database: Database;
  let app: RootsApp;

  beforeAll(async () => {
    database = await openTestDatabase(undefined);
    app = await buildTestApp({ database, env: { FACE_CHECK_RATE_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('answers the horoscope for a sign or for a birth date', async () => {
    const bySign = await app.inject({ method: 'GET', url: '/api/insights/horoscope?date=2026-11-21&sign=leo' });
    expect(bySign.statusCode, bySign.body).toBe(200);
    const reading = horoscopeResponseSchema.parse(bySign.json());
    expect(reading).toMatchObject({ sunSign: null, horoscope: { sign: 'leo', date: '2026-11-21' } });
    expect(bySign.headers['cache-control']).toContain('max-age');

    const byBirth = await app.inject({
      method: 'GET',
      url: '/api/insights/horoscope?date=2026-11-21&birthDate=1990-08-05&birthTime=14:30&utcOffsetMinutes=120',
    });
    expect(byBirth.statusCode, byBirth.body).toBe(200);
    expect(byBirth.json()).toMatchObject({ sunSign: { sign: 'leo', onCusp: false }, horoscope: { sign: 'leo' } });

    const neither = await app.inject({ method: 'GET', url: '/api/insights/horoscope?date=2026-11-21' });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().code).toBe('VALIDATION_ERROR');
    const badDate = await app.inject({ method: 'GET', url: '/api/insights/horoscope?date=2023-02-29&sign=leo' });
    expect(badDate.statusCode).toBe(400);
  });

  it('answers a biorhythm chart for a range and refuses a range that is too long', async () => {
    const chart = await app.inject({
      method: 'GET',
      url: '/api/insights/biorhythm?birthDate=1990-08-05&from=2026-11-21&to=2026-11-27&cycles=physical,emotional',
    });
    expect(chart.statusCode, chart.body).toBe(200);
    const parsed = biorhythmChartSchema.parse(chart.json());
    expect(parsed.days).toHaveLength(7);
    expect(parsed.cycles.map((cycle) => cycle.cycle)).toEqual(['physical', 'emotional']);
    const tooLong = await app.inject({ method: 'GET', url: '/api/insights/biorhythm?birthDate=1990-08-05&from=2026-01-01&to=2027-06-01' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('answers population and cultural insights for heritage groups', async () => {
    const population = await app.inject({ method: 'GET', url: '/api/insights/population?groups=east_asian,indian' });
    expect(population.statusCode, population.body).toBe(200);
    expect(populationInsightsSchema.parse(population.json()).groups.map((group) => group.id)).toEqual(['east_asian', 'indian']);
    const cultural = await app.inject({ method: 'GET', url: '/api/insights/cultural?groups=black' });
    expect(cultural.statusCode, cultural.body).toBe(200);
    expect(culturalInsightsResponseSchema.parse(cultural.json()).insights[0]?.id).toBe('black');
    const unknown = await app.inject({ method: 'GET', url: '/api/insights/population?groups=martian' });
    expect(unknown.statusCode).toBe(400);
  });

  it('rate-limits the face check per client', async () => {
    const send = () => app.inject({ method: 'POST', url: '/api/face-check', payload: { not: 'a photo' } });
    expect((await send()).statusCode).toBe(415);
    expect((await send()).statusCode).toBe(415);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
