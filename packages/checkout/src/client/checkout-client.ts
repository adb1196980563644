import { resolveClientConfig, type ClientInitOptions, type ResolvedClientConfig } from '../core/config/client-config';
import { cardLayout } from '../core/config/card-layout';
import { validateContainerType, type ContainerType } from '../core/config/collect-validation';
import { createLogger, type Logger } from '../core/events/logger';
import { GatewayClient } from '../core/http/gateway-client';
import { CHECKOUT_CLIENT_VERSION } from '@roots/contracts/gateway-constants';
import { BearerTokenCache } from '../core/security/bearer-token-cache';
import { EventEmitter } from '../core/events/event-emitter';
import { Dropin, type DropinOptions } from '../dropin/dropin';
import { CollectContainer } from '../elements/collect-container';
import type { CardFormOptions } from '../methods/card/card-element';
import type { CheckoutContext, SessionEvents } from './checkout-context';

/** Local storage key holding the SDK version (checkout-spec §3 "Storage"). */
export const SDK_VERSION_KEY = 'roots-checkout:version';

/** The card form's frames, fetched ahead of the mount (checkout-spec §7: script and html preloaded). */
export const PRELOADED_CARD_FRAMES = ['card-number', 'expiry-date', 'cvv'] as const;

/** Adds `<link rel=preload>` for the card frames' scripts and html, once per document. */
export function preloadCardFrames(doc: Document, elementsURL: string): void {
  for (const field of PRELOADED_CARD_FRAMES) {
    for (const [file, as] of [
      [`${field}.js`, 'script'],
      [`${field}.html`, 'document'],
    ] as const) {
      const href = `${elementsURL}/${file}`;
      if (doc.head.querySelector(`link[href="${href}"]`)) continue;
      const link = doc.createElement('link');
      link.rel = as === 'script' ? 'preload' : 'prefetch';
      // The frame's module script is fetched in CORS mode (the gateway allows any origin to read
      // it); the frame page is a navigation, so its prefetch stays a plain (no-cors) request.
      if (as === 'script') {
        link.as = 'script';
        link.crossOrigin = 'anonymous';
      }
      link.href = href;
      doc.head.append(link);
    }
  }
}

/** An initialised checkout client: creates drop-ins, card forms and collect containers. */
export class CheckoutClient {
  readonly context: CheckoutContext;

  constructor(config: ResolvedClientConfig, win: Window & typeof globalThis) {
    const logger: Logger = createLogger(config.logLevel);
    const tokens = new BearerTokenCache({ getBearerToken: config.getBearerToken, logError: (error) => logger.error(error.message, error) });
    tokens.seed(config.session.bearerToken);
    const sessionEvents = new EventEmitter<SessionEvents>(['sessionExpired']);
    // Every 401/403 (gateway calls, the vault behind a collect) raises sessionExpired and refreshes
    // the token once through the merchant's callback (checkout-spec §4 "Bearer token").
    const onUnauthorized = (refused: string | undefined): Promise<string | undefined> => {
      sessionEvents.emit('sessionExpired', {});
      return tokens.refresh(refused);
    };
    const api = new GatewayClient({ getToken: () => tokens.get(), onUnauthorized });
    const context: CheckoutContext = {
      config,
      api,
      tokens,
      sessionEvents,
      logger,
      window: win,
      document: win.document,
      container: (type: ContainerType = 'COLLECT', options?: { layout: number[] }) =>
        new CollectContainer(
          {
            gatewayOrigin: config.gatewayOrigin,
            elementsURL: config.elementsURL,
            tokenizeURL: config.session.links.tokenize,
            recordsURL: `${config.vaultURL}/v1/records`,
            getBearerToken: () => tokens.get(),
            onUnauthorized,
            env: config.env,
            warn: (message) => logger.warn(message),
            window: win,
          },
          validateContainerType(type),
          options,
        ),
    };
    this.context = context;
    preloadCardFrames(win.document, config.elementsURL);
    try {
      win.localStorage.setItem(SDK_VERSION_KEY, CHECKOUT_CLIENT_VERSION);
    } catch {
      // storage unavailable: not needed to pay
    }
  }

  /** The drop-in: every enabled method as radio items. */
  createDropin(options: DropinOptions = {}): Dropin {
    return new Dropin(this.context, options);
  }

  /**
   * The card form alone (a drop-in with only the card item, its radio hidden).
   * @throws DUPLICATE_LAYOUT_FIELD (and other layout errors) at once.
   */
  createCardForm(options: CardFormOptions & Omit<DropinOptions, 'card' | 'paymentMethods'> = {}): Dropin {
    cardLayout(options); // a bad layout fails here, not at mount
    return new Dropin(this.context, { ...options, card: options, paymentMethods: ['card'], showStoredInstruments: false });
  }

  /** Client-wide events: `sessionExpired` on every call answered 401/403, drop-in or standalone container. */
  on<Name extends keyof SessionEvents & string>(name: Name, handler: (payload: SessionEvents[Name]) => void): () => void {
    return this.context.sessionEvents.on(name, handler);
  }

  /** A collect container for custom layouts of secure fields (COLLECT, or COMPOSABLE with a layout). */
  container(type: ContainerType = 'COLLECT', options?: { layout: number[] }): CollectContainer {
    return this.context.container(type, options);
  }
}

/**
 * Initialises the checkout on the subscription page.
 *
 * @example
 * const session = await (await fetch('/init/session')).json();
 * const checkout = initCheckout({ session, getBearerToken: async () => (await (await fetch('/init/session')).json()).bearerToken });
 * const dropin = checkout.createDropin({ card: { showStoreInstrumentCheckbox: true } });
 * dropin.on('success', ({ execution }) => finishPurchase(execution.id));
 * await dropin.mount('#checkout');
 */
export function initCheckout(options: ClientInitOptions, win: Window & typeof globalThis = window): CheckoutClient {
  return new CheckoutClient(resolveClientConfig(options), win);
}
