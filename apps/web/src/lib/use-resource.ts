import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** What a screen shows for data it loads: loading, the data, or the error. */
export type Resource<T> = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; data: T };

/**
 * Loads data for `key` (null: nothing to load yet) and reloads when the key changes or `reload`
 * is called; a load that is no longer wanted is aborted and its answer ignored. While `reload`
 * runs, the last answer for the same key stays shown (polling does not flash 'loading').
 * @example const report = useResource(me ? reportId : null, (signal) => getReport(reportId, signal));
 */
export function useResource<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): Resource<T> & { reload: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<{ key: string; resource: Resource<T> } | null>(null);
  // The latest `load`, read when a load starts, so a new function each render does not reload.
  const latestLoad = useRef(load);
  useLayoutEffect(() => {
    latestLoad.current = load;
  });
  const token = key === null ? null : `${attempt}:${key}`;
  useEffect(() => {
    if (token === null || key === null) return;
    const controller = new AbortController();
    latestLoad.current(controller.signal).then(
      (data) => !controller.signal.aborted && setSettled({ key, resource: { status: 'ready', data } }),
      (error: unknown) => !controller.signal.aborted && setSettled({ key, resource: { status: 'error', error } }),
    );
    return () => controller.abort();
  }, [token, key]);
  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  const resource: Resource<T> = settled && settled.key === key ? settled.resource : { status: 'loading' };
  return { ...resource, reload };
}
