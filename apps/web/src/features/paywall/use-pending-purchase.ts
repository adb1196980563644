import type { PaymentStatusResponse } from '@roots/contracts/subscriptions';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { RequestError } from '../../lib/api-client';

/** How often a pending payment is asked about again while the page waits. */
export const PENDING_RECHECK_MS = 10_000;
/**
 * Checks the page makes by itself (the checkout's maximum of 60 polls, checkout-spec §9): 60 × 10 s
 * outlast the gateway's 10-minute window for the bank's check, after which the payment has ended
 * either way. "Check again now" still works after them.
 */
export const MAX_AUTOMATIC_CHECKS = 60;

/** Why a pending payment ended without paying for the plan. */
export type NotPaidReason = 'failed' | 'expired' | 'refunded';

/**
 * A pending payment: still waiting for the bank (`lastCheck`: what the last "check again" found,
 * null before one), or ended without paying (`message`: the server's words, when it gave them).
 */
export type PendingPurchaseState =
  { status: 'waiting'; lastCheck: 'pending' | 'unreachable' | null } | { status: 'not-paid'; reason: NotPaidReason; message?: string };

/** What the page can ask about a pending purchase: the create call (records it) and the status read. */
export type PendingPurchaseCalls = {
  create: () => Promise<{ id: string }>;
  status: () => Promise<PaymentStatusResponse>;
};

/**
 * Whether a failed create call means "not decided yet": the server answers CONFLICT while the
 * gateway still holds the payment pending (the purchase is recorded then), and no answer or a 5xx
 * says nothing about the payment.
 */
export function stillPending(reason: unknown): boolean {
  if (!(reason instanceof RequestError)) return false;
  return reason.code === 'CONFLICT' || reason.status === 0 || reason.status >= 500;
}

type Round = { kind: 'paid'; id: string } | { kind: 'pending'; recorded: boolean } | { kind: 'unreachable' } | PendingEnd;
type PendingEnd = { kind: 'ended'; reason: NotPaidReason; message?: string };

/** One ask: the create call until the server has recorded the purchase, then the status read. */
async function ask(calls: PendingPurchaseCalls, recorded: boolean): Promise<Round> {
  if (!recorded) {
    try {
      return { kind: 'paid', id: (await calls.create()).id };
    } catch (reason) {
      if (stillPending(reason)) return { kind: 'pending', recorded: reason instanceof RequestError && reason.code === 'CONFLICT' };
      const message = reason instanceof Error ? reason.message : String(reason);
      // A plan this browser already owns: the payment is set aside and refunded (issue 23).
      return { kind: 'ended', reason: reason instanceof RequestError && reason.code === 'ALREADY_OWNED' ? 'refunded' : 'failed', message };
    }
  }
  try {
    const answer = await calls.status();
    if (answer.status === 'paid' && answer.id) return { kind: 'paid', id: answer.id };
    if (answer.status === 'pending' || answer.status === 'paid') return { kind: 'pending', recorded: true };
    return { kind: 'ended', reason: answer.status };
  } catch {
    // An outage says nothing about the payment: the page keeps waiting and says it could not check.
    return { kind: 'unreachable' };
  }
}

/**
 * While the drop-in's payment is pending (product-spec §2, issue 24): records the purchase with the
 * create call at once, then reads where its payment stands every {@link PENDING_RECHECK_MS} (at most
 * {@link MAX_AUTOMATIC_CHECKS} times) and whenever `checkNow` is called. The server finishes the
 * purchase by itself when the gateway's webhook or its reconcile job sees the payment complete; this
 * page then gets the id and moves on. A payment that fails, expires or is refunded ends the wait.
 * One payment per mount: the screen is keyed by its execution.
 */
export function usePendingPurchase(
  calls: PendingPurchaseCalls,
  onCreated: (id: string) => void,
): { state: PendingPurchaseState; checking: boolean; checkNow: () => void } {
  const [state, setState] = useState<PendingPurchaseState>({ status: 'waiting', lastCheck: null });
  // Asking now (the first ask starts with the wait).
  const [checking, setChecking] = useState(true);
  const [round, setRound] = useState(0);
  // The latest callbacks, read by the effect without making it re-run when they change.
  const latest = useRef({ calls, onCreated });
  useLayoutEffect(() => {
    latest.current = { calls, onCreated };
  });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const recorded = useRef(false);
  const automatic = useRef(0);
  const byHand = useRef(false);

  useEffect(() => {
    let cancelled = false;
    void ask(latest.current.calls, recorded.current).then((answer) => {
      if (cancelled) return;
      setChecking(false);
      switch (answer.kind) {
        case 'paid':
          latest.current.onCreated(answer.id);
          return;
        case 'ended':
          setState({ status: 'not-paid', reason: answer.reason, ...(answer.message ? { message: answer.message } : {}) });
          return;
        case 'pending':
          recorded.current ||= answer.recorded;
          if (byHand.current) setState({ status: 'waiting', lastCheck: 'pending' });
          break;
        case 'unreachable':
          if (byHand.current) setState({ status: 'waiting', lastCheck: 'unreachable' });
          break;
      }
      if (automatic.current >= MAX_AUTOMATIC_CHECKS) return;
      timer.current = setTimeout(() => {
        automatic.current += 1;
        byHand.current = false;
        setChecking(true);
        setRound((value) => value + 1);
      }, PENDING_RECHECK_MS);
    });
    return () => {
      cancelled = true;
      clearTimeout(timer.current);
    };
  }, [round]);

  const checkNow = useCallback(() => {
    clearTimeout(timer.current);
    byHand.current = true;
    setChecking(true);
    setRound((value) => value + 1);
  }, []);
  return { state, checking, checkNow };
}
