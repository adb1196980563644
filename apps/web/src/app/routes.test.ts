import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createRoutes } from './routes';

function describeMatch(path: string) {
  const matches = matchRoutes(createRoutes('roots'), path) ?? [];
  const leaf = matches.at(-1)?.route;
  return { titleKey: (leaf?.handle as { titleKey?: string } | undefined)?.titleKey, lazy: leaf?.lazy, params: matches.at(-1)?.params };
}

describe('route table (product-spec §2)', () => {
  it.each([
    ['/roots/population', 'population'],
    ['/roots/access-product', 'accessProduct'],
    ['/roots/sign-in', 'signIn'],
    ['/roots/activate', 'activate'],
    ['/roots/access-recovery', 'accessRecovery'],
    ['/roots/update-card/dXBkYXRlLWNhcmQ6.sig', 'updateCard'],
    ['/roots/webapp', 'webappHome'],
    ['/roots/webapp/myethnicity/r-42', 'myEthnicity'],
    ['/roots/webapp/selfie', 'selfie'],
    ['/roots/webapp/profile', 'profile'],
    ['/roots/webapp/reports', 'reports'],
    ['/roots/webapp/manage-subscriptions', 'manageSubscriptions'],
  ])('%s → %s screen', (path, titleKey) => {
    expect(describeMatch(path).titleKey).toBe(titleKey);
  });

  it.each(['cookies', 'privacy', 'terms'])('/roots/legal/%s → the legal screen', async (kind) => {
    const matches = matchRoutes(createRoutes('roots'), `/roots/legal/${kind}`) ?? [];
    const leaf = matches.at(-1)?.route;
    expect(leaf?.handle).toEqual({ legalDocument: kind });
    expect((await (leaf?.lazy as () => Promise<{ Component: { name: string } }>)()).Component.name).toBe('LegalScreen');
  });

  it('passes the update-card link token to its page', () => {
    expect(describeMatch('/roots/update-card/dXBkYXRlLWNhcmQ6.sig').params).toMatchObject({ token: 'dXBkYXRlLWNhcmQ6.sig' });
  });

  it('passes the report id to My Ethnicity', () => {
    expect(describeMatch('/roots/webapp/myethnicity/r-42').params).toMatchObject({ reportId: 'r-42' });
  });

  it('sends every other product path to the landing and paths outside the product to not-found', async () => {
    const landing = describeMatch('/roots/some/campaign/page').lazy as () => Promise<{ Component: { name: string } }>;
    expect((await landing()).Component.name).toBe('OnboardingScreen');
    const index = describeMatch('/roots/').lazy as () => Promise<{ Component: { name: string } }>;
    expect((await index()).Component.name).toBe('OnboardingScreen');
    const outside = describeMatch('/elsewhere').lazy as () => Promise<{ Component: { name: string } }>;
    expect((await outside()).Component.name).toBe('NotFoundScreen');
    const webappUnknown = describeMatch('/roots/webapp/nope').lazy as () => Promise<{ Component: { name: string } }>;
    expect((await webappUnknown()).Component.name).toBe('NotFoundScreen');
  });

  it('mounts the sign-in and signed-in screens', async () => {
    const screens: Array<[string, string]> = [
      ['/roots/sign-in', 'SignInScreen'],
      ['/roots/activate', 'ActivateScreen'],
      ['/roots/webapp', 'WebappHomeScreen'],
      ['/roots/webapp/profile', 'ProfileScreen'],
      ['/roots/webapp/selfie', 'SelfieScreen'],
      ['/roots/webapp/manage-subscriptions', 'ManageSubscriptionsScreen'],
      ['/roots/update-card/dXBkYXRlLWNhcmQ6.sig', 'UpdateCardScreen'],
    ];
    for (const [path, name] of screens) {
      const lazy = describeMatch(path).lazy as () => Promise<{ Component: { name: string } }>;
      expect((await lazy()).Component.name, path).toBe(name);
    }
  });

  it('mounts every route under another slug', () => {
    expect(matchRoutes(createRoutes('kin'), '/kin/sign-in')?.at(-1)?.route.handle).toEqual({ titleKey: 'signIn' });
    expect(matchRoutes(createRoutes('kin'), '/roots/sign-in')?.at(-1)?.route.handle).toBeUndefined();
  });
});
