import {
  accessRecoveryRequestSchema,
  accessRecoveryResponseSchema,
  cancelMineRequestSchema,
  cancelMineResponseSchema,
  deleteAccountResponseSchema,
  mySubscriptionsResponseSchema,
  profileResponseSchema,
  profileSchema,
} from '@roots/contracts/account';
import { meResponseSchema, sessionStateResponseSchema, signInOptionsSchema, type AuthProvider } from '@roots/contracts/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SignInLimits } from '../../lib/sign-in-limits';
import type { MerchantApiBudget } from '../../plugins/merchant-api-budget';
import type { SessionReader } from '../auth/session';
import type { AccountService } from './account.service';

type AccountRoutesOptions = {
  service: AccountService;
  sessions: SessionReader;
  providers: AuthProvider[];
  limits: SignInLimits;
  budget: MerchantApiBudget;
};

/**
 * `/api/account/*`: every route but sign-in-options, access-recovery and session needs a session,
 * and reads only the caller's own data.
 */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, { service, sessions, providers, limits, budget }) => {
  app.get('/api/account/sign-in-options', { schema: { response: { 200: signInOptionsSchema } } }, async () => ({
    providers,
    email_code: true,
  }));

  app.post(
    '/api/account/access-recovery',
    { schema: { body: accessRecoveryRequestSchema, response: { 200: accessRecoveryResponseSchema } } },
    async (request) => {
      // It may email a sign-in code: the same per-address limit as asking for one directly; the code
      // email itself is shaped where it is sent (ADR 167), never refused for the email.
      await limits.codeRequest(request.ip, request.body.email);
      return service.recoverAccess(request.body.email, sessions);
    },
  );

  app.get('/api/account/me', { schema: { response: { 200: meResponseSchema } } }, async (request) =>
    service.me(await sessions.require(request)),
  );

  // The same answer for pages a visitor sees too: no session is `{ me: null }`, not a 401 (ADR 149).
  app.get('/api/account/session', { schema: { response: { 200: sessionStateResponseSchema } } }, async (request) => {
    const user = await sessions.current(request);
    return { me: user ? await service.me(user) : null };
  });

  app.get('/api/account/profile', { schema: { response: { 200: profileResponseSchema } } }, async (request) =>
    service.profile(await sessions.require(request)),
  );

  app.put('/api/account/profile', { schema: { body: profileSchema, response: { 200: profileResponseSchema } } }, async (request) =>
    service.updateProfile(await sessions.require(request), request.body),
  );

  app.get('/api/account/subscriptions', { schema: { response: { 200: mySubscriptionsResponseSchema } } }, async (request) => ({
    subscriptions: await service.mySubscriptions(await sessions.require(request)),
  }));

  app.post(
    '/api/account/subscriptions/:id/cancel',
    { schema: { params: z.object({ id: z.uuid() }), body: cancelMineRequestSchema, response: { 200: cancelMineResponseSchema } } },
    // A refund reaches the gateway: the subscription's own budget, once its owner is proven (ADR 160).
    async (request) =>
      service.cancelMine(await sessions.require(request), request.params.id, request.body?.refund ?? false, (row) => budget.owner(row.id)),
  );

  app.delete('/api/account', { schema: { response: { 200: deleteAccountResponseSchema } } }, async (request, reply) => {
    await service.deleteMyData(await sessions.require(request));
    void reply.header('set-cookie', [
      'better-auth.session_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax',
      'better-auth.session_data=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax',
    ]);
    return { deleted: true as const };
  });
};
