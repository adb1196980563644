import { createElement, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactElement } from 'react';
import { initCheckout, type CheckoutClient } from '../client/checkout-client';
import type { ClientInitOptions } from '../core/config/client-config';
import { DROPIN_EVENTS, type Dropin, type DropinEvents, type DropinOptions } from '../dropin/dropin';

import { MOUNT_DELAY_MS } from '../dropin/mount-delay';

export { MOUNT_DELAY_MS };

/**
 * One checkout client per session (re-initialised when the session id changes).
 * @example const client = useCheckoutClient({ session, getBearerToken });
 */
export function useCheckoutClient(options: ClientInitOptions): CheckoutClient {
  const { session } = options;
  const latest = useRef(options);
  latest.current = options;
  return useMemo(() => initCheckout({ ...latest.current, getBearerToken: () => latest.current.getBearerToken() }), [session.sessionId]);
}

export type DropinHandlers = { [Name in keyof DropinEvents as `on${Capitalize<Name & string>}`]?: (payload: DropinEvents[Name]) => void };

/**
 * Mounts a drop-in (or, with `mode: 'card'`, the card form alone) into the returned ref after
 * {@link MOUNT_DELAY_MS}; unmounts on cleanup. Handlers may change between renders.
 */
export function useDropin(
  client: CheckoutClient,
  options: DropinOptions & { mode?: 'dropin' | 'card' } = {},
  handlers: DropinHandlers = {},
): { ref: (element: HTMLElement | null) => void; dropin: Dropin | undefined } {
  const [host, setHost] = useState<HTMLElement | null>(null);
  const [dropin, setDropin] = useState<Dropin>();
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const optionsRef = useRef(options);
  optionsRef.current = options;
  useEffect(() => {
    if (!host) return undefined;
    const { mode, ...dropinOptions } = optionsRef.current;
    const created =
      mode === 'card' ? client.createCardForm({ ...dropinOptions, ...(dropinOptions.card ?? {}) }) : client.createDropin(dropinOptions);
    for (const name of DROPIN_EVENTS) {
      const key = `on${name[0]!.toUpperCase()}${name.slice(1)}` as keyof DropinHandlers;
      created.on(name, (payload) => (handlersRef.current[key] as ((value: unknown) => void) | undefined)?.(payload));
    }
    const timer = setTimeout(() => void created.mount(host).then(() => setDropin(created)), MOUNT_DELAY_MS);
    return () => {
      clearTimeout(timer);
      created.unmount();
      setDropin(undefined);
    };
  }, [client, host]);
  return { ref: setHost, dropin };
}

export type RootsCheckoutProps = ClientInitOptions &
  DropinHandlers & {
    dropin?: DropinOptions;
    mode?: 'dropin' | 'card';
    className?: string;
    style?: CSSProperties;
  };

/**
 * The drop-in as a React component.
 * @example
 * <RootsCheckout session={session} getBearerToken={() => session.bearerToken} onSuccess={({ execution }) => finish(execution.id)} />
 */
export function RootsCheckout(props: RootsCheckoutProps): ReactElement {
  const { session, getBearerToken, vaultURL, options, dropin, mode, className, style, ...handlers } = props;
  const client = useCheckoutClient({ session, getBearerToken, ...(vaultURL ? { vaultURL } : {}), ...(options ? { options } : {}) });
  const { ref } = useDropin(client, { ...dropin, ...(mode ? { mode } : {}) }, handlers);
  return createElement('div', { ref, className, style, 'data-testid': 'roots-checkout' });
}
