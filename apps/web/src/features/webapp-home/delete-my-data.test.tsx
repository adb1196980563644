import type { MeResponse } from '@roots/contracts/auth';
import { cleanup, fireEvent, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes, signedInCustomer } from '../../lib/test-render';
import { WebappHomeScreen } from './webapp-home-screen';

const mocks = vi.hoisted(() => ({ me: null as MeResponse | null, deleted: 0 }));
vi.mock('../../lib/auth-guard', () => ({ useSignedIn: () => mocks.me }));
vi.mock('./api/get-home-data', () => ({ getHomeData: () => new Promise(() => undefined) }));
vi.mock('./api/delete-my-data', () => ({
  deleteMyData: async () => {
    mocks.deleted += 1;
  },
}));

beforeEach(() => {
  mocks.me = signedInCustomer(['subscription']);
  mocks.deleted = 0;
});
afterEach(cleanup);

describe('Delete my data (issue 24)', () => {
  it('asks first, then deletes and says it was done', async () => {
    renderRoutes([{ path: '/roots/webapp', Component: WebappHomeScreen }], '/roots/webapp');
    fireEvent.click(screen.getByRole('button', { name: 'Delete my data' }));
    // The confirm step: nothing is deleted yet, and the way back is there.
    expect(mocks.deleted).toBe(0);
    expect(screen.getByRole('button', { name: 'Keep my data' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete everything' }));
    const confirmation = within(await screen.findByTestId('account-deleted')).getByRole('status');
    expect(mocks.deleted).toBe(1);
    expect(confirmation.textContent).toContain('Your account, reports and profile are deleted and you are signed out.');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your data is deleted');
    expect(screen.getByRole('link', { name: 'Go to the start' }).getAttribute('href')).toBe('/roots/');
  });
});
