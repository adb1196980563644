import { useTranslation } from 'react-i18next';
import { readSessionValue } from '../../lib/session-keys';

/**
 * What the paywall says about the selfie (ADR 145). The photo lives in this tab's memory only and
 * is never sent for a report before the purchase, so a reload loses it; the tab keeps only a flag
 * (`selfieTaken`) that it took one. After payment the signed-in app's 'Take a selfie' asks for it.
 * Nothing is said while the photo is in memory: the report is made from it right after payment.
 */
export function SelfieNotice({ inMemory }: { inMemory: boolean }) {
  const { t } = useTranslation();
  if (inMemory) return null;
  const again = readSessionValue('selfieTaken') === '1';
  return (
    <p className="notice" data-testid="selfie-notice">
      {again ? t('screens.paywall.selfie.again') : t('screens.paywall.selfie.after')}
    </p>
  );
}
