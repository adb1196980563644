import type { MeResponse } from '@roots/contracts/auth';
import type { Report } from '@roots/contracts/reports';
import { cleanup, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes, signedInCustomer } from '../../lib/test-render';
import { MyEthnicityScreen } from './my-ethnicity-screen';

const mocks = vi.hoisted(() => ({ me: null as MeResponse | null, report: null as Report | null }));
vi.mock('../../lib/auth-guard', () => ({ useSignedIn: () => mocks.me }));
vi.mock('../../lib/webapp-api', () => ({ getReport: async () => mocks.report }));

const REPORT_ID = '0b8c1c43-7e1f-4f51-9f3c-5d0b5b1d2a02';

function reportOf(status: 'failed' | 'expired'): Report {
  return {
    report_id: REPORT_ID,
    subscription_id: '6a1f1c54-8f43-4a43-9d51-6f0d6c2b8a11',
    userId: 'user-1',
    kind: 'extended',
    status,
    created_at: '2026-11-18T09:30:00.000Z',
    updated_at: '2026-11-18T09:30:00.000Z',
    result: null,
    error: status === 'failed' ? { code: 'NO_FACE', message: 'We could not find a face in your photo.' } : null,
  };
}

function openReport() {
  renderRoutes([{ path: '/roots/webapp/myethnicity/:reportId', Component: MyEthnicityScreen }], `/roots/webapp/myethnicity/${REPORT_ID}`);
}

beforeEach(() => {
  mocks.me = signedInCustomer(['subscription']);
});
afterEach(cleanup);

describe('My Ethnicity after a report that could not be made (ADR 145)', () => {
  it('a failed report says why and offers a new selfie in the app', async () => {
    mocks.report = reportOf('failed');
    openReport();
    expect((await screen.findByRole('alert')).textContent).toBe('This report could not be made: We could not find a face in your photo.');
    expect(screen.getByRole('link', { name: 'Take a selfie' }).getAttribute('href')).toBe('/roots/webapp/selfie');
  });

  it('an expired report offers a new selfie in the app', async () => {
    mocks.report = reportOf('expired');
    openReport();
    expect((await screen.findByRole('alert')).textContent).toBe('This report expired before it was ready. Please take a new selfie.');
    expect(screen.getByRole('link', { name: 'Take a selfie' }).getAttribute('href')).toBe('/roots/webapp/selfie');
  });

  it('offers no selfie once the purchases include no report', async () => {
    mocks.me = signedInCustomer([]);
    mocks.report = reportOf('failed');
    openReport();
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Take a selfie' })).toBeNull();
  });
});
