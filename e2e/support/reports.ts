import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { CAMERA_FACE } from './paths';

/**
 * report/create with the purchase and a real face, as the page's own fetch sends it (a
 * cookie-carrying POST names its Origin, ADR 111), then get-report until it is completed.
 */
export async function createCompletedReport(
  page: Page,
  { email, subscriptionId }: { email: string; subscriptionId: string },
): Promise<string> {
  const image = readFileSync(CAMERA_FACE).toString('base64');
  const headers = { origin: new URL(page.url()).origin };
  const created = await page.request.post('/report/create', { data: { email, subscription_id: subscriptionId, image }, headers });
  expect(created.status(), await created.text()).toBe(200);
  const { report_id: reportId } = (await created.json()) as { report_id: string };
  await expect
    .poll(
      async () => {
        const answer = await page.request.post('/report/get-report', {
          data: { email, subscription_id: subscriptionId, report_id: reportId },
          headers,
        });
        return ((await answer.json()) as { report: { status: string } }).report.status;
      },
      { timeout: 90_000, message: 'the report completes' },
    )
    .toBe('completed');
  return reportId;
}

/** What the conclusion of a finished report says: a resemblance with its share and reliability, or that the estimate is uncertain. */
export const CONCLUSION =
  /^(Your face most resembles the .+ \(\d+% visual resemblance, (?:high|medium|low) (?:reliability|confidence)\)\.|The estimate is uncertain: .+)$/;

/**
 * The report page opened for `reportId` and, once the report is made, its conclusion and the
 * sections named `sections` (level-2 headings of My Ethnicity).
 */
export async function expectReportShown(page: Page, reportId: string, sections: readonly string[]): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`/roots/webapp/myethnicity/${reportId}$`), { timeout: 30_000 });
  await expect(page.getByTestId('ethnicity-conclusion')).toHaveText(CONCLUSION, { timeout: 90_000 });
  const screen = page.getByTestId('my-ethnicity-screen');
  for (const title of sections) await expect(screen.getByRole('heading', { level: 2, name: title })).toBeVisible();
}
