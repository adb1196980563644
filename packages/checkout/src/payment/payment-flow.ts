import type { Execution, PaymentItem, ReturnInfo, SdkInitPayload } from '@roots/contracts/gateway';
import { CheckoutError, CHECKOUT_MESSAGES, type CheckoutErrorCode } from '../core/errors/checkout-error';
import { nextStep, threeDsPopupSize, type StepContext } from '../core/execution/execution-machine';
import {
  PIX_POLL_INITIAL_DELAY_MS,
  PIX_POLL_INTERVAL_MS,
  PIX_POLL_MAX_ATTEMPTS,
  PIX_POPUP_TIMEOUT_MS,
  POLL_INTERVAL_MS,
  pollExecution,
  realTimers,
  type PollTimers,
} from '../core/execution/poll-execution';
import type { GatewayClient } from '../core/http/gateway-client';
import { acceptGatewayWindowMessage } from '../core/security/gateway-window-message';

/** Generic page redirect: if the page is still here after this long, the payment failed (checkout-spec §9). */
export const REDIRECT_FALLBACK_MS = 30_000;
/** The redirect-wait flag is cleared this long after it is set (checkout-spec §4, §9). */
export const REDIRECT_FLAG_CLEAR_MS = 3_000;
export const WAITING_FOR_REDIRECT_KEY = 'waitingForRedirectResponse';

export type PaymentOutcome =
  | { kind: 'success'; execution: Execution }
  | { kind: 'pending'; execution: Execution }
  | { kind: 'failure'; code: CheckoutErrorCode; message: string; execution?: Execution; status?: number };

export type PaymentFlowContext = {
  api: GatewayClient;
  session: SdkInitPayload;
  window: Window & typeof globalThis;
  returnInfo: ReturnInfo;
  timers?: PollTimers;
  /** Risk session id (meta.risk.sessionId). */
  riskSessionId?: string;
  /** 'popup' opens redirect methods in a window; 'page' navigates (default for the generic redirect). */
  redirectMode?: 'popup' | 'page';
  signal?: AbortSignal;
};

/** A popup centred on the screen; undefined when the browser blocks it. */
export function openPopup(win: Window, url: string, size: { width: number; height: number }, name: string): Window | undefined {
  const left = Math.max(0, Math.round((win.screen.width - size.width) / 2));
  const top = Math.max(0, Math.round((win.screen.height - size.height) / 2));
  return win.open(url, name, `popup=yes,width=${size.width},height=${size.height},left=${left},top=${top}`) ?? undefined;
}

/** Resolves when the gateway page posts its completion message, or the popup closes, or the timeout passes. */
function waitForCompletion(context: PaymentFlowContext, popup: Window | undefined, timeoutMs: number): Promise<void> {
  const win = context.window;
  return new Promise((resolve) => {
    const done = () => {
      win.removeEventListener('message', onMessage);
      win.clearInterval(closedTimer);
      win.clearTimeout(timeout);
      resolve();
    };
    const onMessage = (event: MessageEvent) => {
      if (
        acceptGatewayWindowMessage(event, {
          origin: new URL(context.session.gatewayOrigin).origin,
          executionId: context.session.executionId,
          source: popup,
        })
      )
        done();
    };
    win.addEventListener('message', onMessage);
    const closedTimer = win.setInterval(() => {
      if (popup?.closed) done();
    }, 500);
    const timeout = win.setTimeout(done, timeoutMs);
    context.signal?.addEventListener('abort', done);
  });
}

function failure(error: unknown): PaymentOutcome {
  if (error instanceof CheckoutError) {
    if (error.code === 'UNAUTHORIZED') return { kind: 'failure', code: 'AUTHENTICATION_ERROR', message: CHECKOUT_MESSAGES.unauthorized };
    return { kind: 'failure', code: error.code, message: error.message, ...(error.status !== undefined ? { status: error.status } : {}) };
  }
  return { kind: 'failure', code: 'UNKNOWN_ERROR', message: CHECKOUT_MESSAGES.somethingWentWrong };
}

/**
 * Drives one payment from authorize to a final outcome (checkout-spec §4): authorize, poll,
 * 3-D Secure popup (or redirect), redirect and pix. Network and timers only — no UI.
 */
export async function runPayment(context: PaymentFlowContext, item: PaymentItem): Promise<PaymentOutcome> {
  let execution: Execution;
  try {
    execution = await authorizeItem(context, item);
  } catch (error) {
    return failure(error);
  }
  return continuePayment(context, execution, item);
}

/** Authorizes one payment item on the session's execution (checkout-spec §7 "Authorize link"). */
export function authorizeItem(context: PaymentFlowContext, item: PaymentItem): Promise<Execution> {
  const { api, session } = context;
  return api.authorize(session.links.authorize, {
    amount: session.amount,
    paymentComposition: [item],
    returnInfo: context.returnInfo,
    ...(context.riskSessionId ? { meta: { risk: { sessionId: context.riskSessionId } } } : {}),
  });
}

/**
 * Follows the execution state machine from an execution already read (after authorize, or after a
 * wallet's confirm) to a final outcome: poll, 3-D Secure, redirect, pix.
 */
export async function continuePayment(context: PaymentFlowContext, start: Execution, item: PaymentItem): Promise<PaymentOutcome> {
  const { api, session } = context;
  const timers = context.timers ?? realTimers;
  const poll = (overrides: Parameters<typeof pollExecution>[0] extends infer O ? Partial<O> : never = {}) =>
    pollExecution({
      fetchExecution: () => api.getExecution(session.links.execution),
      timers,
      ...(context.signal ? { signal: context.signal } : {}),
      ...overrides,
    });
  let execution = start;
  try {
    const stepContext: StepContext = {};
    for (let guard = 0; guard < 5; guard += 1) {
      const step = nextStep(execution, stepContext);
      switch (step.kind) {
        case 'poll':
          execution = await poll();
          continue;
        case 'confirm':
          // Confirm belongs to wallets and PayPal (their elements call api.confirm); a card payment waits.
          execution = await poll({ initialDelayMs: POLL_INTERVAL_MS });
          if (execution.status === 'confirmRequested') return { kind: 'pending', execution };
          continue;
        case 'success':
          return { kind: 'success', execution };
        case 'pending':
          // A hosted-page method is only pending on its page: without the link there is nowhere to go.
          if (item.integrationType === 'hpp' && !execution.links.redirect)
            return { kind: 'failure', code: 'REDIRECT_LINK_MISSING', message: 'The redirect link is missing', execution };
          return { kind: 'pending', execution };
        case 'failure':
          return { kind: 'failure', code: step.code, message: step.message, execution };
        case 'threeDS':
        case 'googlePay3DS': {
          const mode = step.kind === 'threeDS' ? step.mode : 'popup';
          const popup =
            mode === 'popup' ? openPopup(context.window, step.href, threeDsPopupSize(context.window.screen.width), 'roots-3ds') : undefined;
          if (!popup) {
            redirectPage(context, step.href);
            return { kind: 'pending', execution };
          }
          await waitForCompletion(context, popup, PIX_POPUP_TIMEOUT_MS);
          stepContext.afterChallenge = true;
          execution = await poll({ initialDelayMs: 0 });
          continue;
        }
        case 'redirect': {
          // The gateway says which hosted method opens in a popup (pix: `clientConfig.popup`), not the SDK by a code of its own.
          const isPix = context.session.paymentMethods.some(
            (method) => method.code === item.paymentMethodCode && method.clientConfig?.popup === true,
          );
          if (isPix || context.redirectMode === 'popup') {
            const popup = openPopup(context.window, step.url, { width: 500, height: 600 }, 'roots-redirect');
            if (!popup) {
              redirectPage(context, step.url);
              return { kind: 'pending', execution };
            }
            // Pix (checkout-spec §9): poll after 20 000 ms every 2 000 ms, or at once when the page reports back.
            const controller = new AbortController();
            const completed = waitForCompletion(context, popup, PIX_POPUP_TIMEOUT_MS).then(() => controller.abort(new Error('completed')));
            try {
              execution = await poll({
                pendingIsFinal: false,
                initialDelayMs: PIX_POLL_INITIAL_DELAY_MS,
                intervalMs: PIX_POLL_INTERVAL_MS,
                maxAttempts: PIX_POLL_MAX_ATTEMPTS,
                signal: controller.signal,
              });
            } catch (error) {
              if (!controller.signal.aborted) throw error;
              await completed;
              execution = await poll({ initialDelayMs: 0 });
            }
            popup.close();
            if (execution.status === 'authorizePending') return { kind: 'pending', execution };
            continue;
          }
          redirectPage(context, step.url);
          await timers.sleep(REDIRECT_FALLBACK_MS, context.signal);
          return { kind: 'failure', code: 'AUTHORIZATION_ERROR', message: CHECKOUT_MESSAGES.authorizationFailed, execution };
        }
      }
    }
    return { kind: 'failure', code: 'AUTHORIZATION_ERROR', message: CHECKOUT_MESSAGES.authorizationFailed, execution };
  } catch (error) {
    return failure(error);
  }
}

/** Navigates the page, with the redirect-wait flag set for 3 s (checkout-spec §4). */
export function redirectPage(context: Pick<PaymentFlowContext, 'window'>, url: string): void {
  const win = context.window;
  try {
    win.localStorage.setItem(WAITING_FOR_REDIRECT_KEY, 'true');
    win.setTimeout(() => win.localStorage.removeItem(WAITING_FOR_REDIRECT_KEY), REDIRECT_FLAG_CLEAR_MS);
  } catch {
    // storage may be unavailable (private mode); the redirect still happens
  }
  win.location.assign(url);
}
