import type { MeResponse } from '@roots/contracts/auth';
import type { AccessKind } from '@roots/contracts/subscriptions';
import { render } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { createI18n } from './i18n';
import { PublicConfigProvider } from './public-config-context';
import { readPublicConfig } from './public-config';

/**
 * Test support for screens (never imported by the app): renders `routes` at `url` inside the app's
 * providers — the public configuration, en-US copy, a memory router — and returns the router.
 */
export function renderRoutes(routes: RouteObject[], url: string) {
  const config = readPublicConfig();
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  render(
    <PublicConfigProvider config={config}>
      <I18nextProvider i18n={createI18n(config.productName)}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </PublicConfigProvider>,
  );
  return router;
}

/** `GET /api/account/me` of a signed-in customer whose purchases grant `access`. */
export function signedInCustomer(access: AccessKind[]): MeResponse {
  return {
    user: {
      uid: 'user-1',
      email: 'ada@example.com',
      displayName: '',
      providerId: 'email',
      providerDataId: 'ada@example.com',
      isAppleAuth: false,
      isGoogleAuth: false,
    },
    has_purchase: true,
    access,
    session_expires_at: '2030-01-01T00:00:00.000Z',
  };
}
