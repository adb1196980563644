import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { productPath, ROUTE_PATHS } from '../../lib/paths';

/**
 * 'Take a selfie' in the signed-in app (ADR 145): where a report is owed and missing (`owed`), or
 * after one that failed or expired (`retake`). It opens the app's own selfie capture.
 */
export function TakeSelfieLink({ slug, reason }: { slug: string; reason: 'owed' | 'retake' }) {
  const { t } = useTranslation();
  return (
    <div className="notice take-selfie" data-testid="take-selfie">
      <p>{t(`webapp.selfie.${reason}`)}</p>
      <Link className="button button--primary" to={productPath(slug, ROUTE_PATHS.selfie)}>
        {t('webapp.selfie.take')}
      </Link>
    </div>
  );
}
