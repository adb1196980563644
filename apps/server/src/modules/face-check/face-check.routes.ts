import { ANALYSIS_ERROR_MESSAGES, API_MESSAGES, MESSAGES } from '@roots/contracts';
import { faceCheckOkSchema, MAX_SELFIE_BYTES } from '@roots/contracts/face-check';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AnalysisEngine } from '../analysis/analysis-engine';

type FaceCheckRoutesOptions = { engine: AnalysisEngine; ratePerMinute: number };

/**
 * POST /api/face-check: the funnel's processing step. Raw photo bytes in the body (image/* or
 * application/octet-stream); the engine checks them in memory and they are dropped with the
 * request. 200 `{ ok: true, quality }`, or 422 `{ error, code }` with the catalogue's message for the engine's code.
 */
export const faceCheckRoutes: FastifyPluginAsyncZod<FaceCheckRoutesOptions> = async (app, { engine, ratePerMinute }) => {
  // Scoped to this plugin: the rest of the API keeps JSON-only bodies.
  const keepBytes = { parseAs: 'buffer' as const, bodyLimit: MAX_SELFIE_BYTES };
  for (const contentType of ['application/octet-stream', /^image\/[a-z0-9.+-]+$/i]) {
    app.addContentTypeParser(contentType, keepBytes, (_request, body, done) => done(null, body));
  }

  app.post(
    '/api/face-check',
    { bodyLimit: MAX_SELFIE_BYTES, config: { rateLimit: { max: ratePerMinute, timeWindow: 60_000 } } },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) {
        return reply.status(415).send({ error: API_MESSAGES.photoContentType, code: 'UNSUPPORTED_MEDIA_TYPE' });
      }
      const outcome = await engine.check(request.body);
      if (outcome.ok) {
        const { brightness, sharpness, faceSize } = outcome.quality;
        return reply.send(faceCheckOkSchema.parse({ ok: true, quality: { brightness, sharpness, faceSize } }));
      }
      if (outcome.code === 'INTERNAL') {
        request.log.warn({ cause: outcome.cause }, 'face check failed');
        return reply.status(503).send({ error: MESSAGES.somethingWentWrong, code: 'SERVICE_UNAVAILABLE' });
      }
      return reply.status(422).send({ error: ANALYSIS_ERROR_MESSAGES[outcome.code], code: outcome.code });
    },
  );
};
