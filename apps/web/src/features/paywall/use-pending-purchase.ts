import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { RequestError } from '../../lib/api-client';

/** How often a pending payment is asked about again while the page waits. */
export const PENDING_RECHECK_MS = 5_000;

/** A pending payment: still waiting for the bank, or settled without paying (with the server's message). */
export type PendingPurchaseState = { status: 'waiting' } | { status: 'not-paid'; message: string };

/**
 * Whether a failed create call means "not decided yet": the server answers CONFLICT while the
 * gateway still holds the payment pending, and no answer or a 5xx says nothing about the payment.
 */
export function stillPending(reason: unknown): boolean {
  if (!(reason instanceof RequestError)) return false;
  return reason.status === 409 || reason.status === 0 || reason.status >= 500;
}

/**
 * While the drop-in's payment is pending (product-spec §2): asks the server for the subscription
 * at once and every {@link PENDING_RECHECK_MS}. The first call records the purchase intent, so the
 * server finishes it by itself when the gateway's webhook or its reconcile job sees the payment
 * complete; this page then gets the id and moves on. A payment that fails ends the wait.
 * `create` null: nothing pending.
 */
export function usePendingPurchase(
  create: (() => Promise<{ id: string }>) | null,
  onCreated: (id: string) => void,
): { state: PendingPurchaseState; checking: boolean; checkNow: () => void } {
  const [state, setState] = useState<PendingPurchaseState>({ status: 'waiting' });
  // Asking now (the first ask starts with the wait).
  const [checking, setChecking] = useState(true);
  const [round, setRound] = useState(0);
  // The latest callbacks, read by the effect without making it re-run when they change.
  const latest = useRef({ create, onCreated });
  useLayoutEffect(() => {
    latest.current = { create, onCreated };
  });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const active = create !== null;

  useEffect(() => {
    if (!active) return undefined;
    let cancelled = false;
    void Promise.resolve(latest.current.create?.())
      .then((answer) => {
        if (cancelled || !answer) return;
        latest.current.onCreated(answer.id);
      })
      .catch((reason: unknown) => {
        if (cancelled) return;
        setChecking(false);
        if (!stillPending(reason)) {
          setState({ status: 'not-paid', message: reason instanceof Error ? reason.message : String(reason) });
          return;
        }
        timer.current = setTimeout(() => {
          setChecking(true);
          setRound((value) => value + 1);
        }, PENDING_RECHECK_MS);
      });
    return () => {
      cancelled = true;
      clearTimeout(timer.current);
    };
  }, [active, round]);

  const checkNow = useCallback(() => {
    clearTimeout(timer.current);
    setChecking(true);
    setRound((value) => value + 1);
  }, []);
  return { state, checking, checkNow };
}
