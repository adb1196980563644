import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { Screen } from '../../components/ui/screen';

/** Route handle naming the screen's title key under `screens.titles`. */
export type ScreenShellHandle = { titleKey: string };

function isShellHandle(handle: unknown): handle is ScreenShellHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as ScreenShellHandle).titleKey === 'string';
}

/**
 * A titled, empty screen for routes whose feature has not landed yet. The title comes from the
 * deepest route handle, so one lazily loaded module serves every such route.
 */
export function TitledScreenShell() {
  const { t } = useTranslation();
  const handle = useMatches()
    .map((match) => match.handle)
    .filter(isShellHandle)
    .at(-1);
  const titleKey = handle?.titleKey ?? 'webappHome';
  return <Screen title={t(`screens.titles.${titleKey}`)} testId={`screen-${titleKey}`} />;
}
