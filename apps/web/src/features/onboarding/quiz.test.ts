import { describe, expect, it } from 'vitest';
import { emptyQuizAnswers, type QuizAnswers } from '../../lib/onboarding-store';
import { FUNNEL_SCREENS_EN_US } from '../../lib/locales/en-US/funnel';
import { nextQuestion, previousQuestion, QUIZ_LENGTH, QUIZ_QUESTIONS, quizStartFrom, resumeQuestion } from './quiz';

describe('quiz model', () => {
  it('has the 20 questions of product-spec §3, each worded in en-US with every option', () => {
    expect(QUIZ_LENGTH).toBe(20);
    const copy: Record<string, { title: string; options: Record<string, string> }> = FUNNEL_SCREENS_EN_US.onboarding.quiz.questions;
    expect(Object.keys(copy).sort()).toEqual(QUIZ_QUESTIONS.map((question) => question.id).sort());
    for (const question of QUIZ_QUESTIONS) {
      expect(copy[question.id]!.title).not.toBe('');
      expect(Object.keys(copy[question.id]!.options)).toEqual([...question.options]);
    }
  });

  it('starts every answer at null', () => {
    const answers = emptyQuizAnswers();
    expect(Object.keys(answers)).toEqual(Array.from({ length: 20 }, (_, index) => String(index + 1)));
    expect(Object.values(answers).every((answer) => answer === null)).toBe(true);
  });

  it('reads startFrom as a question number, with 1 as the default for anything else', () => {
    const startFrom = (query: string) => quizStartFrom(new URLSearchParams(query));
    expect(startFrom('')).toBe(1);
    expect(startFrom('startFrom=3')).toBe(3);
    expect(startFrom('startFrom=20')).toBe(20);
    expect(startFrom('plan=roots_3d1_7d2499&startFrom=7')).toBe(7);
    for (const invalid of ['startFrom=0', 'startFrom=21', 'startFrom=2.5', 'startFrom=-3', 'startFrom=abc', 'startFrom=', 'startFrom=1e1'])
      expect(startFrom(invalid), invalid).toBe(1);
  });

  it('moves forward to done after 20, and back no further than startFrom', () => {
    expect(nextQuestion(1)).toBe(2);
    expect(nextQuestion(19)).toBe(20);
    expect(nextQuestion(20)).toBe('done');
    expect(previousQuestion(5, 1)).toBe(4);
    expect(previousQuestion(5, 5)).toBeNull();
    expect(previousQuestion(1, 1)).toBeNull();
  });

  it('resumes at the first unanswered question from startFrom, or the last when all are answered', () => {
    const answers: QuizAnswers = { ...emptyQuizAnswers(), 3: 'often', 4: 'yes' };
    expect(resumeQuestion(answers, 1)).toBe(1);
    expect(resumeQuestion(answers, 3)).toBe(5);
    const complete = Object.fromEntries(Object.keys(answers).map((key) => [key, 'x'])) as unknown as QuizAnswers;
    expect(resumeQuestion(complete, 1)).toBe(20);
  });
});
