import type { ReportSummary } from '@roots/contracts/reports';
import { cleanup, render, screen } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { MyEthnicitySection } from './home-sections';

const failed: ReportSummary = {
  report_id: '0b8c1c43-7e1f-4f51-9f3c-5d0b5b1d2a02',
  subscription_id: '6a1f1c54-8f43-4a43-9d51-6f0d6c2b8a11',
  userId: 'user-1',
  kind: 'extended',
  status: 'failed',
  created_at: '2026-11-18T09:30:00.000Z',
  updated_at: '2026-11-18T09:30:00.000Z',
  error: { code: 'NO_FACE', message: 'No face found' },
  top_estimate: null,
};

function renderSection(reports: ReportSummary[], owed: boolean) {
  return render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <MemoryRouter>
        <MyEthnicitySection reports={reports} owed={owed} slug="roots" />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

const takeSelfie = () => screen.queryByRole('link', { name: 'Take a selfie' });

afterEach(cleanup);

describe('the home’s My Ethnicity section (ADR 145)', () => {
  it('with a report owed and none made, offers “Take a selfie” in the app', () => {
    renderSection([], true);
    expect(screen.getByText(/^No report yet\./)).toBeTruthy();
    expect(screen.getByTestId('take-selfie').textContent).toContain('Your purchase includes a report. Take a selfie to get it.');
    expect(takeSelfie()?.getAttribute('href')).toBe('/roots/webapp/selfie');
  });

  it('after a failed report, offers a new selfie beside the failed one', () => {
    renderSection([failed], true);
    expect(screen.getByTestId('take-selfie').textContent).toContain('Take a new selfie to get your report.');
    expect(takeSelfie()?.getAttribute('href')).toBe('/roots/webapp/selfie');
    expect(screen.getByRole('link', { name: 'Open My Ethnicity' }).getAttribute('href')).toBe(
      `/roots/webapp/myethnicity/${failed.report_id}`,
    );
  });

  it('names the top estimate with the report’s own visual-resemblance wording (issue 24, ADR 148)', () => {
    const completed: ReportSummary = {
      ...failed,
      status: 'completed',
      error: null,
      top_estimate: { label: 'Black', share: 98, display: 'fine', uncertainty: 'high reliability' },
    };
    renderSection([completed], false);
    expect(screen.getByText(/most resembles/).textContent).toBe(
      'Your face most resembles the Black group (98% visual resemblance, high reliability).',
    );
    expect(document.body.textContent).not.toContain('Top estimate');
  });

  it('offers no selfie when no report is owed', () => {
    renderSection([], false);
    expect(screen.getByText(/^No report yet\./)).toBeTruthy();
    expect(takeSelfie()).toBeNull();
  });
});
