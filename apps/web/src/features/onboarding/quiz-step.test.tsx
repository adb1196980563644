import { cleanup, fireEvent, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyQuizAnswers, useQuizStore } from '../../lib/onboarding-store';
import { readPublicConfig } from '../../lib/public-config';
import { renderRoutes } from '../../lib/test-render';
import { OnboardingScreen } from './onboarding-screen';

function openLanding(url: string) {
  return renderRoutes([{ path: `/${readPublicConfig().slug}/*`, Component: OnboardingScreen }], url);
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

beforeEach(() => {
  sessionStorage.clear();
  useQuizStore.setState({ startDate: null, email: '', quizAnswers: emptyQuizAnswers() });
});
afterEach(() => cleanup());

describe('the quiz variant of the landing', () => {
  it('starts at startFrom, records each answer, goes back no further than startFrom, then on to consent', async () => {
    openLanding('/roots/quiz?startFrom=19&plan=roots_3d1_7d2499');
    expect(screen.getByText('Question 19 of 20')).toBeTruthy();
    expect(heading()).toBe('How often would you like new insights?');
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
    expect(useQuizStore.getState().startDate).toMatch(/^\d{4}-\d\d-\d\dT/);

    fireEvent.click(screen.getByRole('button', { name: 'Every week' }));
    expect(screen.getByText('Question 20 of 20')).toBeTruthy();
    expect(heading()).toBe('How did you hear about Roots?');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Every week' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Every day' }).getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(screen.getByRole('button', { name: 'Every day' }));
    fireEvent.click(screen.getByRole('button', { name: 'A friend' }));
    expect(await screen.findByRole('heading', { name: 'Before we take your photo' })).toBeTruthy();
    const { quizAnswers } = useQuizStore.getState();
    expect(quizAnswers[19]).toBe('daily');
    expect(quizAnswers[20]).toBe('friend');
    expect(Object.values(quizAnswers).filter((answer) => answer !== null)).toHaveLength(2);
  });

  it('goes back from consent to the last question, and an invalid startFrom starts at 1', async () => {
    openLanding('/roots/quiz?startFrom=99');
    expect(screen.getByText('Question 1 of 20')).toBeTruthy();
    expect(heading()).toBe('What brings you to Roots?');
    cleanup();

    useQuizStore.setState({ quizAnswers: { ...emptyQuizAnswers(), 20: 'search' } });
    openLanding('/roots/quiz?startFrom=20');
    fireEvent.click(screen.getByRole('button', { name: 'A search engine' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(screen.getByText('Question 20 of 20')).toBeTruthy();
  });

  it('the plain landing keeps the walkthrough', () => {
    openLanding('/roots/?startFrom=3');
    expect(screen.queryByText(/Question \d+ of 20/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Next' })).toBeTruthy();
  });
});

describe('quiz state email (session value userQuizEmail)', () => {
  it('is prefilled from session storage and written back there', async () => {
    sessionStorage.setItem('userQuizEmail', 'quiz@example.com');
    vi.resetModules();
    const { useQuizStore: freshStore } = await import('../../lib/onboarding-store');
    expect(freshStore.getState().email).toBe('quiz@example.com');
    freshStore.getState().setEmail('other@example.com');
    expect(sessionStorage.getItem('userQuizEmail')).toBe('other@example.com');
    expect(freshStore.getState().email).toBe('other@example.com');
  });
});
