import { Outlet, useNavigation } from 'react-router';
import { EmptyPlaceholder } from '../components/ui/empty-placeholder';

/** Shows an empty placeholder while the next screen's code loads. */
export function RootLayout() {
  const navigation = useNavigation();
  return navigation.state === 'loading' ? <EmptyPlaceholder /> : <Outlet />;
}
