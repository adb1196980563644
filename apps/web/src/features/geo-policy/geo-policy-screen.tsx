import { Link, useLoaderData } from 'react-router';
import type { GeoPolicy } from '@roots/contracts/admin';
import { AlreadyCustomer } from '../../components/ui/already-customer';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';

/**
 * What a visitor sees where the face analysis is not offered (the geo policy, ADR 123): it says so
 * plainly, and offers what remains (population insights for anyone; horoscope and biorhythm in the
 * account of a customer) or nothing, as configured. It stands in for the landing and for the paywall
 * (whose plans all include the face analysis), and each of its links leads somewhere that is not it.
 */
export function GeoPolicyScreen() {
  const policy = useLoaderData<GeoPolicy | null>();
  const { slug, productName } = usePublicConfig();
  const fallback = policy?.fallback ?? 'nothing';
  return (
    <main className="screen geo-policy" data-testid="geo-policy-screen">
      <h1 className="screen__title">The face analysis is not available in your country</h1>
      <p>
        {productName} does not offer its face analysis where you are{policy?.country ? ` (${policy.country})` : ''}: the law there does not
        allow estimating population groups from a photo of a face. We will not ask for a selfie.
      </p>
      {fallback === 'insights' ? (
        <>
          <p>What you can still use, without a photo:</p>
          <ul>
            <li>population insights: where people of each group live today, free;</li>
            <li>your daily horoscope and biorhythm, in your account if you are already a customer.</li>
          </ul>
          <p>
            <Link className="button button--primary" to={productPath(slug, ROUTE_PATHS.population)}>
              See population insights
            </Link>
          </p>
        </>
      ) : (
        <p>There is nothing else we can offer in your country for now.</p>
      )}
      <AlreadyCustomer />
    </main>
  );
}
