import type { MeResponse } from '@roots/contracts/auth';
import type { ReportSummary } from '@roots/contracts/reports';
import type { AccessKind } from '@roots/contracts/subscriptions';
import { cleanup, render, screen, within } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { renderRoutes, signedInCustomer } from '../../lib/test-render';
import { ReportList, ReportsScreen } from './reports-screen';

const mocks = vi.hoisted(() => ({ access: [] as AccessKind[], reports: [] as ReportSummary[] }));
vi.mock('../../lib/auth-guard', () => ({ useSignedIn: (): MeResponse => signedInCustomer(mocks.access) }));
vi.mock('../../lib/webapp-api', () => ({ listReports: async () => mocks.reports }));

const base = {
  subscription_id: '6a1f1c54-8f43-4a43-9d51-6f0d6c2b8a11',
  userId: 'user-1',
  kind: 'extended' as const,
  updated_at: '2026-11-20T10:00:00.000Z',
  error: null,
};
const REPORTS: ReportSummary[] = [
  {
    ...base,
    report_id: '0b8c1c43-7e1f-4f51-9f3c-5d0b5b1d2a01',
    status: 'completed',
    created_at: '2026-11-20T10:00:00.000Z',
    top_estimate: { label: 'East Asian', share: 48, display: 'fine', uncertainty: 'low reliability' },
  },
  {
    ...base,
    report_id: '0b8c1c43-7e1f-4f51-9f3c-5d0b5b1d2a02',
    kind: 'population',
    status: 'failed',
    created_at: '2026-11-18T09:30:00.000Z',
    error: { code: 'NO_FACE', message: 'No face found' },
    top_estimate: null,
  },
];

function renderList(reports: ReportSummary[]) {
  return render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <MemoryRouter>
        <ReportList reports={reports} slug="roots" />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

afterEach(cleanup);

describe('ReportList', () => {
  it('lists each report with its date, kind, status and top estimate, linking to its My Ethnicity screen', () => {
    renderList(REPORTS);
    const list = screen.getByRole('list', { name: 'Your reports, newest first' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const [completed, failed] = rows as [HTMLElement, HTMLElement];
    expect(completed.textContent).toContain('Extended report · Status: completed');
    expect(completed.textContent).toContain('Your face most resembles the East Asian group (48% visual resemblance, low reliability).');
    const date = new Date(REPORTS[0]!.created_at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
    expect(completed.textContent).toContain(`Created ${date}`);
    expect(
      within(completed)
        .getByRole('link', { name: `Open report of ${date}` })
        .getAttribute('href'),
    ).toBe(`/roots/webapp/myethnicity/${REPORTS[0]!.report_id}`);
    expect(within(completed).getByRole('button', { name: `Download PDF of ${date}` })).toBeDefined();

    expect(failed.textContent).toContain('Population report · Status: failed');
    expect(failed.textContent).not.toContain('resembles');
    expect(within(failed).queryByRole('button')).toBeNull();
    expect(within(failed).getByRole('link').getAttribute('href')).toBe(`/roots/webapp/myethnicity/${REPORTS[1]!.report_id}`);
  });

  it('shows the empty state without a list', () => {
    renderList([]);
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getByTestId('reports-empty').textContent).toBe(
      'No reports yet. Your first report appears here once your selfie has been analysed.',
    );
  });
});

describe('ReportsScreen and a report owed (ADR 145)', () => {
  function renderScreen(access: AccessKind[], reports: ReportSummary[]) {
    mocks.access = access;
    mocks.reports = reports;
    renderRoutes([{ path: '/roots/webapp/reports', Component: ReportsScreen }], '/roots/webapp/reports');
  }
  const takeSelfie = () => screen.queryByRole('link', { name: 'Take a selfie' });

  it('a customer whose purchase includes reports and who has none is offered a selfie', async () => {
    renderScreen(['subscription'], []);
    expect(await screen.findByTestId('reports-empty')).toBeTruthy();
    expect(takeSelfie()?.getAttribute('href')).toBe('/roots/webapp/selfie');
  });

  it('only failed reports: a new selfie is offered above them', async () => {
    renderScreen(['ultimate_pack'], [REPORTS[1]!]);
    expect(await screen.findByRole('list', { name: 'Your reports, newest first' })).toBeTruthy();
    expect(screen.getByTestId('take-selfie').textContent).toContain('Take a new selfie to get your report.');
  });

  it('no selfie once a report is completed, nor without a purchase that includes reports', async () => {
    renderScreen(['subscription'], REPORTS);
    expect(await screen.findByRole('list', { name: 'Your reports, newest first' })).toBeTruthy();
    expect(takeSelfie()).toBeNull();
    cleanup();
    renderScreen([], []);
    expect(await screen.findByTestId('reports-empty')).toBeTruthy();
    expect(takeSelfie()).toBeNull();
  });
});
