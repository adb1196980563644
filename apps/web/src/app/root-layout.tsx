import { Outlet, useNavigation } from 'react-router';
import { EmptyPlaceholder } from '../components/ui/empty-placeholder';
import { SiteFooter } from '../components/ui/site-footer';

/**
 * Every screen with the footer's legal links under it (product-spec §2); an empty placeholder while
 * the next screen's code loads.
 */
export function RootLayout() {
  const navigation = useNavigation();
  return (
    <>
      {navigation.state === 'loading' ? <EmptyPlaceholder /> : <Outlet />}
      <SiteFooter />
    </>
  );
}
