import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api-client';
import type { Resource } from '../../lib/use-resource';

/** A load that failed: the server's message (or the fallback) and a button that loads again. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert">
      <p>{errorMessage(error)}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {t('webapp.retry')}
      </button>
    </div>
  );
}

/**
 * The loading and error states of a {@link Resource}, or its content once loaded.
 * @param loading the status text while it loads; default 'Loading…'
 * @example <Loaded resource={reports}>{(list) => <ReportList reports={list} />}</Loaded>
 */
export function Loaded<T>({
  resource,
  loading,
  children,
}: {
  resource: Resource<T> & { reload: () => void };
  loading?: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (resource.status === 'loading') return <p role="status">{loading ?? t('webapp.loading')}</p>;
  if (resource.status === 'error') return <LoadFailed error={resource.error} onRetry={resource.reload} />;
  return <>{children(resource.data)}</>;
}
