import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app';
import { createRoutes } from './app/routes';
import './app/styles.css';
import { createI18n } from './lib/i18n';
import { preloadImages } from './lib/preload-images';
import { readPublicConfig } from './lib/public-config';
import { loadRemoteAddr } from './lib/remote-addr';
import { readSessionValue, writeSessionValue } from './lib/session-keys';
import { configureSubscriptionService } from './lib/subscription-service';
import { initTracking } from './lib/track';

const config = readPublicConfig();
console.info(`[${config.slug}] version ${config.version}`);

// Outside the signed-in area, warm the fixed image list (product-spec §2); failures are only logged.
if (!window.location.pathname.startsWith(`/${config.slug}/webapp`)) void preloadImages();

initTracking(config.trackingEnabled);
// Staging subscription service for an origin containing 'dev', when configured (product-spec §7).
configureSubscriptionService(config.subscriptionApi, window.location.origin);
// The ip and country the attribution record carries (product-spec §3, §7), asked once per load.
void loadRemoteAddr();
// The address this visit arrived at (session key __url, product-spec §3), kept for the visit.
if (readSessionValue('url') === null) writeSessionValue('url', window.location.href);

const router = createBrowserRouter(createRoutes(config.slug));
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('#root element missing from index.html');
createRoot(rootElement).render(
  <StrictMode>
    <App config={config} i18n={createI18n(config.productName)} router={router} />
  </StrictMode>,
);
