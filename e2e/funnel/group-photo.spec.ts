import { expect, test, type Page } from '@playwright/test';
import type { FaceBox } from '@roots/contracts/face-check';
import type { ReportListResponse } from '@roots/contracts/reports';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { payWithSuccessCard, signInByEmailCode, uniqueEmail } from '../support/session';
import { FunnelPage } from './funnel-page';
import { groupPhoto } from './test-photos';

/**
 * Choose your face (issue 35, ADR 192), on a phone: a photo of three people is not refused; the
 * customer sees it with each face outlined, taps the second, and the report is made of that face
 * alone. The photo stays in the tab's memory: the check answers boxes, the browser sends the photo
 * again with the chosen box. The middle face is the one the engine estimates East Asian.
 */
test.use({ viewport: { width: 390, height: 844 } });

/** The signed-in user's reports, as the server lists them for the session. */
async function listMyReports(page: Page): Promise<ReportListResponse['reports']> {
  const answer = await page.request.post('/report/list-reports', { data: {}, headers: { origin: new URL(page.url()).origin } });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as ReportListResponse).reports;
}

test('a group photo: tap the second face → pay → the report is of that face', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('group-photo');
  const funnel = new FunnelPage(page);
  const photo = await groupPhoto(testInfo.outputDir);

  await funnel.open('/roots/');
  await funnel.passWalkthrough();
  await funnel.giveConsent();
  await funnel.openUpload();
  const firstCheck = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/face-check');
  await funnel.uploadSelfie(photo);
  const several = await firstCheck;
  expect(several.status()).toBe(422);
  const answer = (await several.json()) as { error: string; code: string; faces: FaceBox[] };
  expect(answer.code).toBe('MULTIPLE_FACES');
  expect(answer.faces).toHaveLength(3);
  // Geometry only: nothing of the photo comes back.
  expect(Object.keys(answer).sort()).toEqual(['code', 'error', 'faces']);

  // The photo with each face outlined, as buttons a thumb and a keyboard reach; no refusal shown.
  await expect(page.getByRole('heading', { level: 1, name: 'Which one is you?' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  const faces = page.getByRole('button', { name: /^Face \d of 3$/ });
  await expect(faces).toHaveCount(3);
  for (let index = 0; index < 3; index += 1) {
    const box = await faces.nth(index).boundingBox();
    expect(box, `Face ${index + 1} is on screen`).not.toBeNull();
    // Within the phone's width, and big enough to tap.
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
  }
  await expectNoSeriousA11yViolations(page);

  const chosenCheck = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/face-check' && new URL(response.url()).searchParams.has('face'),
  );
  await page.getByRole('button', { name: 'Face 2 of 3' }).click();
  const checked = await chosenCheck;
  expect(checked.status(), await checked.text()).toBe(200);
  const [x, y, width, height] = (new URL(checked.url()).searchParams.get('face') ?? '').split(',').map(Number);
  expect({ x, y, width, height }).toEqual(answer.faces[1]);

  await expect(page.getByRole('heading', { name: 'Where should we send your results?' })).toBeVisible({ timeout: 60_000 });
  await funnel.submitEmail(email);
  await expect(page.getByTestId('roots-pay')).toBeVisible({ timeout: 30_000 });
  const created = page.waitForResponse((response) => new URL(response.url()).pathname === '/report/create', { timeout: 90_000 });
  await payWithSuccessCard(page);
  const report = await created;
  expect(report.status(), await report.text()).toBe(200);
  // The photo goes with the chosen face's box, the one the check answered.
  expect((report.request().postDataJSON() as { face?: FaceBox }).face).toEqual(answer.faces[1]);

  await expect(page).toHaveURL(/\/roots\/offers/, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Continue to my account' }).click();
  await signInByEmailCode(page, email);
  await expect(page).toHaveURL(/\/roots\/webapp$/, { timeout: 30_000 });

  // The report is of the tapped face: the middle person, East Asian to the engine (the others are not).
  await expect.poll(async () => (await listMyReports(page)).map((made) => made.status), { timeout: 90_000 }).toEqual(['completed']);
  const [made] = await listMyReports(page);
  expect(made?.top_estimate?.label).toBe('East Asian');
  await page.goto(`/roots/webapp/myethnicity/${made!.report_id}`);
  await expect(page.getByTestId('ethnicity-conclusion')).toHaveText(/^Your face most resembles the East Asian/, { timeout: 30_000 });
});
