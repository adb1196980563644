import { Link, useLoaderData } from 'react-router';
import type { GeoPolicy } from '@roots/contracts/admin';
import { productPath, ROUTE_PATHS } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';

/**
 * What a visitor sees where the face analysis is not offered (the geo policy, ADR 123): it says so
 * plainly, and offers what remains (horoscope, biorhythm, population insights) or nothing, as configured.
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
          <p>What you can still use:</p>
          <ul>
            <li>your daily horoscope and biorhythm, after you sign in;</li>
            <li>
              <Link to={productPath(slug, ROUTE_PATHS.population)}>population insights</Link>.
            </li>
          </ul>
          <p>
            <Link className="button" to={productPath(slug, ROUTE_PATHS.signIn)}>
              Sign in
            </Link>
          </p>
        </>
      ) : (
        <p>There is nothing else we can offer in your country for now.</p>
      )}
    </main>
  );
}
