import { useTranslation } from 'react-i18next';
import { Screen } from '../../components/ui/screen';

/** Placeholder until the screen lands: its title only. */
export function ReportsScreen() {
  const { t } = useTranslation();
  return <Screen title={t('screens.titles.reports')} testId="screen-reports" />;
}
