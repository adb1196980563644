import type { MeResponse } from '@roots/contracts/auth';
import { cleanup, createEvent, fireEvent, screen } from '@testing-library/preact';
import { useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestError } from '../../lib/api-client';
import { renderRoutes, signedInCustomer } from '../../lib/test-render';
import { SelfieScreen } from './selfie-screen';
import type * as FaceCheckModule from '../../lib/face-check';

const mocks = vi.hoisted(() => ({
  me: null as MeResponse | null,
  createReport: vi.fn(),
  checkFace: vi.fn(),
}));
vi.mock('../../lib/auth-guard', () => ({
  useSignedIn: () => mocks.me,
  useRequestFailure: (show: (message: string) => void) => (reason: unknown) => show(reason instanceof Error ? reason.message : 'failed'),
}));
vi.mock('../../lib/create-report', () => ({ createReport: mocks.createReport }));
vi.mock('../../lib/face-check', async (importOriginal) => ({
  ...(await importOriginal<typeof FaceCheckModule>()),
  checkFace: mocks.checkFace,
}));
// jsdom has no canvas encoder: the upload keeps the chosen file as the compressed photo.
vi.mock('../../lib/image-compression', () => ({
  compressImageFile: async (file: Blob) => ({ blob: file, width: 640, height: 480 }),
  compressFrame: async () => {
    throw new Error('no camera in jsdom');
  },
}));

const REPORT_ID = '0b8c1c43-7e1f-4f51-9f3c-5d0b5b1d2a01';
const photo = new File(['a face'], 'face.jpg', { type: 'image/jpeg' });

function ReportPage() {
  return <h1>Report {useParams().reportId}</h1>;
}

function openSelfieScreen() {
  return renderRoutes(
    [
      { path: '/roots/webapp/selfie', Component: SelfieScreen },
      { path: '/roots/webapp/myethnicity/:reportId', Component: ReportPage },
      { path: '/roots/webapp', element: <h1>Home</h1> },
    ],
    '/roots/webapp/selfie',
  );
}

const stepOf = () => screen.getByTestId('selfie-screen').getAttribute('data-step');

/** The funnel's consents, the upload, 'Use this photo': on to the server's check. */
async function consentAndUpload() {
  const next = await screen.findByRole('button', { name: 'Continue' });
  expect(next.hasAttribute('disabled')).toBe(true);
  fireEvent.click(screen.getByRole('checkbox', { name: /analyses my face photo/ }));
  expect(next.hasAttribute('disabled')).toBe(true);
  fireEvent.click(screen.getByRole('checkbox', { name: /18 years old or older/ }));
  fireEvent.click(next);
  fireEvent.click(await screen.findByRole('button', { name: 'Upload a photo instead' }));
  // A file input's own 'change' (the Preact helper's fireEvent.change sends 'input').
  const input = await screen.findByTestId('selfie-file');
  fireEvent(input, createEvent.change(input, { target: { files: [photo] } }));
  fireEvent.click(await screen.findByRole('button', { name: 'Use this photo' }));
}

beforeEach(() => {
  mocks.me = signedInCustomer(['subscription']);
  mocks.createReport.mockReset();
  mocks.checkFace.mockReset();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the signed-in app's 'Take a selfie' (ADR 145)", () => {
  it('runs the funnel’s consents, upload and check, then makes the report without an email and opens it', async () => {
    mocks.checkFace.mockResolvedValue({ ok: true, quality: { brightness: 0.5, sharpness: 0.5, faceSize: 0.5 } });
    mocks.createReport.mockResolvedValue({ report_id: REPORT_ID, status: 'pending' });
    const router = openSelfieScreen();
    expect(await screen.findByRole('heading', { name: 'Before we take your photo' })).toBeTruthy();
    await consentAndUpload();
    expect(stepOf()).toBe('processing');
    expect(await screen.findByRole('progressbar', { name: 'Analysing your photo' })).toBeTruthy();
    await vi.waitFor(() => expect(mocks.checkFace).toHaveBeenCalledWith(photo, undefined, expect.any(Function)));
    expect(mocks.createReport).not.toHaveBeenCalled();
    // The check's three messages run their course, then the report is asked for.
    expect(await screen.findByRole('heading', { name: `Report ${REPORT_ID}` }, { timeout: 6_000 })).toBeTruthy();
    expect(mocks.createReport).toHaveBeenCalledTimes(1);
    expect(mocks.createReport).toHaveBeenCalledWith({ signedIn: true }, photo, undefined);
    expect(router.state.location.pathname).toBe(`/roots/webapp/myethnicity/${REPORT_ID}`);
  });

  it('a photo the check refuses goes back to the camera; no report is asked for', async () => {
    mocks.checkFace.mockRejectedValue(new RequestError('We could not find a face in your photo.', 'NO_FACE', 422));
    openSelfieScreen();
    await consentAndUpload();
    expect((await screen.findByRole('alert')).textContent).toBe('We could not find a face in your photo.');
    fireEvent.click(screen.getByRole('button', { name: 'Retake photo' }));
    expect(stepOf()).toBe('selfie');
    expect(mocks.createReport).not.toHaveBeenCalled();
  });

  it('says why when the report cannot be started, and tries again with the same photo', async () => {
    mocks.checkFace.mockResolvedValue({ ok: true, quality: { brightness: 0.5, sharpness: 0.5, faceSize: 0.5 } });
    mocks.createReport.mockRejectedValueOnce(new RequestError('No subscription data', 'FORBIDDEN', 403));
    mocks.createReport.mockResolvedValueOnce({ report_id: REPORT_ID, status: 'pending' });
    openSelfieScreen();
    await consentAndUpload();
    const alert = await screen.findByRole('alert', {}, { timeout: 6_000 });
    expect(alert.textContent).toContain('We could not start your report: No subscription data');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: `Report ${REPORT_ID}` })).toBeTruthy();
    expect(mocks.createReport).toHaveBeenCalledTimes(2);
    expect(mocks.createReport.mock.calls[1]).toEqual([{ signedIn: true }, photo, undefined]);
  });

  it('a group photo: the faces to choose from, then the check and the report for the tapped face only (ADR 192)', async () => {
    const faces = [
      { x: 0.04, y: 0.34, width: 0.22, height: 0.29 },
      { x: 0.41, y: 0.37, width: 0.19, height: 0.25 },
      { x: 0.75, y: 0.36, width: 0.21, height: 0.28 },
    ];
    const several = { error: 'We found more than one face.', code: 'MULTIPLE_FACES', faces };
    mocks.checkFace.mockRejectedValueOnce(new RequestError(several.error, several.code, 422, several));
    mocks.checkFace.mockResolvedValueOnce({ ok: true, quality: { brightness: 0.5, sharpness: 0.5, faceSize: 0.5 } });
    mocks.createReport.mockResolvedValue({ report_id: REPORT_ID, status: 'pending' });
    openSelfieScreen();
    await consentAndUpload();
    expect((await screen.findByRole('heading', { name: 'Which one is you?' })).tagName).toBe('H1');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(mocks.checkFace).toHaveBeenCalledExactlyOnceWith(photo, undefined, expect.any(Function));

    fireEvent.click(screen.getByRole('button', { name: 'Face 2 of 3' }));
    // The same photo is checked again for the tapped face, then the report is made of it alone.
    await vi.waitFor(() => expect(mocks.checkFace).toHaveBeenLastCalledWith(photo, faces[1], expect.any(Function)));
    expect(await screen.findByRole('heading', { name: `Report ${REPORT_ID}` }, { timeout: 6_000 })).toBeTruthy();
    expect(mocks.createReport).toHaveBeenCalledExactlyOnceWith({ signedIn: true }, photo, faces[1]);
  });

  it('Back from the consent returns home', async () => {
    const router = openSelfieScreen();
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/roots/webapp');
  });

  it('a Profile Pro buyer is offered the capture: the purchase includes the report (ADR 194)', async () => {
    mocks.me = signedInCustomer(['profile_pro']);
    openSelfieScreen();
    expect(await screen.findByRole('heading', { level: 1, name: 'Before we take your photo' })).toBeTruthy();
    expect(screen.queryByTestId('selfie-not-included')).toBeNull();
  });

  it('offers no capture to a customer whose purchases include no report (none live: refunded, ended)', async () => {
    mocks.me = signedInCustomer([]);
    openSelfieScreen();
    expect((await screen.findByTestId('selfie-not-included')).textContent).toContain('Your purchases do not include a report.');
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
