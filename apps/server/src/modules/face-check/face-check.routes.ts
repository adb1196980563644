import { ANALYSIS_ERROR_MESSAGES, API_MESSAGES, MESSAGES } from '@roots/contracts';
import { faceBoxFromParam, faceCheckOkSchema, faceCheckQuerySchema, MAX_SELFIE_BYTES } from '@roots/contracts/face-check';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refusedPhotoStatus, type AnalysisAdmission } from '../analysis/analysis-admission';

type FaceCheckRoutesOptions = { admission: AnalysisAdmission; ratePerMinute: number };

/**
 * POST /api/face-check: the funnel's processing step. Raw photo bytes in the body (image/* or
 * application/octet-stream); the engine checks them in memory and they are dropped with the
 * request. 200 `{ ok: true, quality }`, or 422 `{ error, code }` with the catalogue's message for the engine's code.
 * Before any decoding (ADR 164, 165): 415 `UNSUPPORTED_IMAGE_FORMAT` unless JPEG, PNG or WebP, 422
 * `IMAGE_TOO_LARGE` over 40 MP by the header; 503 (queue full) or 429 (this address holds its
 * share) with `retry-after`.
 *
 * A group photo (ADR 192): several whole, comparable faces answer 422 `MULTIPLE_FACES` with `faces`,
 * their boxes as fractions of the photo, left to right (geometry only). The browser, which still
 * holds the photo, sends it again with `?face=x,y,width,height`: that face alone is checked (and
 * later analysed, report/create's `face`); a choice matching no face answers `CHOSEN_FACE_NOT_FOUND`.
 */
export const faceCheckRoutes: FastifyPluginAsyncZod<FaceCheckRoutesOptions> = async (app, { admission, ratePerMinute }) => {
  // Scoped to this plugin: the rest of the API keeps JSON-only bodies.
  const keepBytes = { parseAs: 'buffer' as const, bodyLimit: MAX_SELFIE_BYTES };
  for (const contentType of ['application/octet-stream', /^image\/[a-z0-9.+-]+$/i]) {
    app.addContentTypeParser(contentType, keepBytes, (_request, body, done) => done(null, body));
  }

  app.post(
    '/api/face-check',
    {
      bodyLimit: MAX_SELFIE_BYTES,
      config: { rateLimit: { max: ratePerMinute, timeWindow: 60_000 } },
      schema: { querystring: faceCheckQuerySchema },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) {
        return reply.status(415).send({ error: API_MESSAGES.photoContentType, code: 'UNSUPPORTED_MEDIA_TYPE' });
      }
      const admitted = admission.admit(request.body, request.ip);
      if ('refused' in admitted) {
        if (admitted.refused === 'photo') {
          const { code } = admitted.outcome;
          return reply.status(refusedPhotoStatus(code)).send({ error: ANALYSIS_ERROR_MESSAGES[code], code });
        }
        const full = admitted.reason === 'full';
        return reply
          .status(full ? 503 : 429)
          .header('retry-after', String(admitted.retryAfterSeconds))
          .send(
            full
              ? { error: API_MESSAGES.analysisBusy, code: 'SERVICE_UNAVAILABLE' }
              : { error: API_MESSAGES.analysisShareUsed, code: 'RATE_LIMITED' },
          );
      }
      const outcome = await admitted.check(request.query.face === undefined ? undefined : faceBoxFromParam(request.query.face));
      if (outcome.ok) {
        const { brightness, sharpness, faceSize } = outcome.quality;
        return reply.send(faceCheckOkSchema.parse({ ok: true, quality: { brightness, sharpness, faceSize } }));
      }
      if (outcome.code === 'INTERNAL') {
        request.log.warn({ cause: outcome.cause }, 'face check failed');
        return reply.status(503).send({ error: MESSAGES.somethingWentWrong, code: 'SERVICE_UNAVAILABLE' });
      }
      const faces = outcome.code === 'MULTIPLE_FACES' && outcome.faces ? { faces: outcome.faces } : {};
      return reply.status(422).send({ error: ANALYSIS_ERROR_MESSAGES[outcome.code], code: outcome.code, ...faces });
    },
  );
};
