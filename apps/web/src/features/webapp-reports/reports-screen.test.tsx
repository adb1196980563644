import type { ReportSummary } from '@roots/contracts/reports';
import { cleanup, render, screen, within } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { ReportList } from './reports-screen';

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
    top_estimate: { label: 'East Asian', share: 48, display: 'fine' },
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
    expect(completed.textContent).toContain('Top estimate: East Asian (48%)');
    const date = new Date(REPORTS[0]!.created_at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
    expect(completed.textContent).toContain(`Created ${date}`);
    expect(
      within(completed)
        .getByRole('link', { name: `Open report of ${date}` })
        .getAttribute('href'),
    ).toBe(`/roots/webapp/myethnicity/${REPORTS[0]!.report_id}`);
    expect(within(completed).getByRole('button', { name: `Download PDF of ${date}` })).toBeDefined();

    expect(failed.textContent).toContain('Population report · Status: failed');
    expect(failed.textContent).not.toContain('Top estimate');
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
