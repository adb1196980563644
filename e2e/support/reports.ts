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
