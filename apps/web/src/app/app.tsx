import type { PublicConfig } from '@roots/contracts';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import type { DataRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { PublicConfigProvider } from '../lib/public-config-context';

export function App({ config, i18n, router }: { config: PublicConfig; i18n: i18n; router: DataRouter }) {
  return (
    <PublicConfigProvider config={config}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </PublicConfigProvider>
  );
}
