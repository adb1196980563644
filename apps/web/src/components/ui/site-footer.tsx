import { useTranslation } from 'react-i18next';
import { usePublicConfig } from '../../lib/public-config-context';

/** Links to the cookie, privacy and terms pages on the product's own site (product-spec §2). */
export function SiteFooter() {
  const { links } = usePublicConfig();
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <nav aria-label="Legal">
        <a href={links.cookies}>{t('screens.footer.cookies')}</a>
        <a href={links.privacy}>{t('screens.footer.privacy')}</a>
        <a href={links.terms}>{t('screens.footer.terms')}</a>
      </nav>
    </footer>
  );
}
