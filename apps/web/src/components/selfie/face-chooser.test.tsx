import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestError } from '../../lib/api-client';
import { severalFacesOf } from '../../lib/face-check';
import { createI18n } from '../../lib/i18n';
import { FaceChooser } from './face-chooser';

const FACES = [
  { x: 0.039, y: 0.342, width: 0.219, height: 0.292 },
  { x: 0.408, y: 0.369, width: 0.189, height: 0.252 },
  { x: 0.748, y: 0.356, width: 0.208, height: 0.277 },
];

afterEach(cleanup);

describe('choosing your face in a group photo (ADR 192)', () => {
  it('outlines each face as a labelled button over the photo, and a tap chooses that face', () => {
    const onChoose = vi.fn();
    render(
      <I18nextProvider i18n={createI18n('Roots')}>
        <FaceChooser previewUrl="blob:group" faces={FACES} onChoose={onChoose} onRetake={() => undefined} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Which one is you?');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    expect(screen.getByText('We found 3 faces in your photo. Tap yours, and we will analyse that face only.')).toBeTruthy();
    const buttons = screen.getAllByRole('button', { name: /^Face \d of 3$/ });
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual(['Face 1 of 3', 'Face 2 of 3', 'Face 3 of 3']);
    // Each outline sits on its face: the box's fractions as percentages of the photo.
    const second = buttons[1]!;
    expect([second.style.left, second.style.top, second.style.width, second.style.height]).toEqual(['40.8%', '36.9%', '18.9%', '25.2%']);
    expect(screen.getByRole('img').getAttribute('src')).toBe('blob:group');

    fireEvent.click(screen.getByRole('button', { name: 'Face 2 of 3' }));
    expect(onChoose).toHaveBeenCalledExactlyOnceWith(FACES[1]);
  });

  it('reads the faces from the check’s MULTIPLE_FACES answer, and nothing from any other failure', () => {
    const answer = { error: 'We found more than one face.', code: 'MULTIPLE_FACES', faces: FACES };
    expect(severalFacesOf(new RequestError(answer.error, answer.code, 422, answer))).toEqual(FACES);
    expect(severalFacesOf(new RequestError('No face', 'NO_FACE', 422, { error: 'No face', code: 'NO_FACE' }))).toBeNull();
    // An answer without boxes (an older server) stays the plain refusal.
    expect(severalFacesOf(new RequestError(answer.error, answer.code, 422, { error: answer.error, code: answer.code }))).toBeNull();
    expect(
      severalFacesOf(
        new RequestError(answer.error, answer.code, 422, { ...answer, faces: [{ x: 2, y: 0, width: 1, height: 1 }, FACES[0]] }),
      ),
    ).toBeNull();
    expect(severalFacesOf(new Error('boom'))).toBeNull();
  });
});
