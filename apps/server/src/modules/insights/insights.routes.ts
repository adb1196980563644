import { API_MESSAGES } from '@roots/contracts';
import {
  biorhythmChartSchema,
  biorhythmQuerySchema,
  culturalInsightsResponseSchema,
  heritageGroupsQuerySchema,
  horoscopeQuerySchema,
  horoscopeResponseSchema,
  populationInsightsSchema,
} from '@roots/contracts/insights';
import { biorhythm, culturalInsights, dailyHoroscope, InsightsError, populationInsights, sunSign } from '@roots/insights';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors';
import { ERROR_RESPONSES } from '../../plugins/error-responses';

/** Pure content: the same query always answers the same, so browsers and proxies may keep it a day. */
const CACHE_CONTROL = 'public, max-age=86400';

/** Runs an insights function; its typed errors (bad date, range too long, …) become 400s. */
function answer<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof InsightsError) throw new AppError('VALIDATION_ERROR', error.message, { cause: error });
    throw error;
  }
}

/**
 * `/api/insights/*`: the signed-in area's horoscope, biorhythm, population and cultural sections,
 * computed by `@roots/insights` (pure functions: nothing is stored, nothing personal is kept).
 */
export const insightsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 200) reply.header('cache-control', CACHE_CONTROL);
    return payload;
  });

  app.get(
    '/api/insights/horoscope',
    { schema: { querystring: horoscopeQuerySchema, response: { 200: horoscopeResponseSchema, ...ERROR_RESPONSES } } },
    async (request) =>
      answer(() => {
        const { date, sign, birthDate, birthTime, utcOffsetMinutes } = request.query;
        const fromBirth = birthDate
          ? sunSign({
              date: birthDate,
              ...(birthTime ? { time: birthTime } : {}),
              ...(utcOffsetMinutes !== undefined ? { utcOffsetMinutes } : {}),
            })
          : null;
        const chosen = sign ?? fromBirth?.sign;
        if (!chosen) throw new AppError('VALIDATION_ERROR', API_MESSAGES.insightsNeedSignOrBirthDate);
        return { sunSign: fromBirth, horoscope: dailyHoroscope(chosen, date) };
      }),
  );

  app.get(
    '/api/insights/biorhythm',
    { schema: { querystring: biorhythmQuerySchema, response: { 200: biorhythmChartSchema, ...ERROR_RESPONSES } } },
    async (request) =>
      answer(() => {
        const { birthDate, from, to, cycles } = request.query;
        return biorhythm({ birthDate, from, ...(to ? { to } : {}), ...(cycles ? { cycles } : {}) });
      }),
  );

  app.get(
    '/api/insights/population',
    { schema: { querystring: heritageGroupsQuerySchema, response: { 200: populationInsightsSchema, ...ERROR_RESPONSES } } },
    async (request) => answer(() => populationInsights(request.query.groups)),
  );

  app.get(
    '/api/insights/cultural',
    { schema: { querystring: heritageGroupsQuerySchema, response: { 200: culturalInsightsResponseSchema, ...ERROR_RESPONSES } } },
    async (request) => answer(() => ({ insights: culturalInsights(request.query.groups) })),
  );
};
