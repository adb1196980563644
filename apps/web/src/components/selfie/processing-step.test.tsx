import { MESSAGES } from '@roots/contracts/messages';
import { act, cleanup, render, screen } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { ProcessingStep } from './processing-step';

/** The server's face check, answered when the test says so. */
let answerCheck: () => void = () => undefined;
vi.mock('../../lib/face-check', () => ({
  checkFace: () =>
    new Promise((resolve) => {
      answerCheck = () => resolve({ ok: true });
    }),
}));

const selfie = { blob: new Blob(['photo'], { type: 'image/webp' }), previewUrl: 'blob:x', width: 640, height: 480 };
const message = () => screen.getByText(/…$/).textContent;

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the processing step (product-spec §4)', () => {
  it('shows its three messages in turn, in order, and moves on only after the last one', async () => {
    const onAccepted = vi.fn();
    render(
      <I18nextProvider i18n={createI18n('Roots')}>
        <ProcessingStep selfie={selfie} onAccepted={onAccepted} onRejected={() => undefined} onFaceChosen={() => undefined} />
      </I18nextProvider>,
    );
    const seen = [message()];
    // A fast server: the check answers at once, yet every message is shown.
    await act(async () => answerCheck());
    for (let step = 0; step < 2; step += 1) {
      act(() => {
        vi.advanceTimersByTime(1_100);
      });
      seen.push(message());
    }
    expect(seen).toEqual([MESSAGES.processingMappingFace, MESSAGES.processingTracingHeritage, MESSAGES.processingBuildingProfile]);
    expect(onAccepted).not.toHaveBeenCalled();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_100);
    });
    expect(onAccepted).toHaveBeenCalledTimes(1);
    // The last message stays: the messages never wrap around to the first.
    expect(message()).toBe(MESSAGES.processingBuildingProfile);
  });

  it('keeps the last message while a slow check is still running', async () => {
    const onAccepted = vi.fn();
    render(
      <I18nextProvider i18n={createI18n('Roots')}>
        <ProcessingStep selfie={selfie} onAccepted={onAccepted} onRejected={() => undefined} onFaceChosen={() => undefined} />
      </I18nextProvider>,
    );
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(message()).toBe(MESSAGES.processingBuildingProfile);
    expect(onAccepted).not.toHaveBeenCalled();
    await act(async () => answerCheck());
    expect(onAccepted).toHaveBeenCalledTimes(1);
  });
});
