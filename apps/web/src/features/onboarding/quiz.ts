import type { QuizAnswers, QuizQuestionNumber } from '../../lib/onboarding-store';

/**
 * The quiz of the quiz variant (product-spec §1: answers 1 to 20, before plan choice). Ids only;
 * the wording lives in the en-US funnel copy under `screens.onboarding.quiz.questions.<id>`.
 * Answers are option ids, so a stored answer never depends on the language shown.
 */
export const QUIZ_QUESTIONS = [
  { id: 'motivation', options: ['curiosity', 'family-history', 'gift', 'travel'] },
  { id: 'knowledge', options: ['a-lot', 'some', 'a-little', 'nothing'] },
  { id: 'lookalike', options: ['often', 'sometimes', 'never'] },
  { id: 'dnaTest', options: ['yes', 'no', 'planning'] },
  { id: 'grandparents', options: ['same-country', 'different-countries', 'not-sure'] },
  { id: 'languages', options: ['one', 'two', 'three-or-more'] },
  { id: 'familyStories', options: ['many', 'a-few', 'none'] },
  { id: 'familyTree', options: ['complete', 'started', 'never'] },
  { id: 'traditions', options: ['many', 'some', 'none'] },
  { id: 'cooking', options: ['often', 'sometimes', 'rarely'] },
  { id: 'visited', options: ['yes', 'want-to', 'no'] },
  { id: 'interest', options: ['breakdown', 'facial-traits', 'cultural-insights', 'horoscope'] },
  { id: 'noticedFeature', options: ['eyes', 'nose', 'lips', 'face-shape'] },
  { id: 'share', options: ['family', 'friends', 'partner', 'nobody'] },
  { id: 'surprise', options: ['excited', 'curious', 'skeptical'] },
  { id: 'horoscope', options: ['daily', 'sometimes', 'never'] },
  { id: 'energy', options: ['yes', 'sometimes', 'no'] },
  { id: 'population', options: ['very', 'a-little', 'not-really'] },
  { id: 'insightsFrequency', options: ['daily', 'weekly', 'on-demand'] },
  { id: 'heardFrom', options: ['social-media', 'friend', 'search', 'other'] },
] as const satisfies ReadonlyArray<{ id: string; options: readonly string[] }>;

/** Number of quiz questions: product-spec §3 quiz answers 1 to 20. */
export const QUIZ_LENGTH = QUIZ_QUESTIONS.length;

/** Where the quiz starts when `startFrom` is missing or not a question number (product-spec §2). */
export const DEFAULT_QUIZ_START = 1;

/** The landing sub-path of the quiz variant: `/{slug}/quiz` (the landing route is the wildcard). */
export const QUIZ_PATH = 'quiz';

/** Narrows a number to a question number 1–20. */
export function isQuizQuestionNumber(value: number): value is QuizQuestionNumber {
  return Number.isInteger(value) && value >= 1 && value <= QUIZ_LENGTH;
}

/**
 * The question the quiz starts from: `startFrom` when it is a whole number from 1 to 20, else 1.
 * @example quizStartFrom(new URLSearchParams('startFrom=3')) // 3
 */
export function quizStartFrom(search: URLSearchParams): QuizQuestionNumber {
  const raw = search.get('startFrom');
  if (raw === null || !/^\d+$/.test(raw.trim())) return DEFAULT_QUIZ_START;
  const value = Number(raw.trim());
  return isQuizQuestionNumber(value) ? value : DEFAULT_QUIZ_START;
}

/**
 * The question to show when the quiz opens (or is reopened with Back from the next step): the first
 * unanswered one from `startFrom` on, or the last question when every one of them is answered.
 */
export function resumeQuestion(answers: QuizAnswers, startFrom: QuizQuestionNumber): QuizQuestionNumber {
  for (let number = startFrom; number <= QUIZ_LENGTH; number += 1) {
    if (isQuizQuestionNumber(number) && answers[number] === null) return number;
  }
  return QUIZ_LENGTH;
}

/** The question after `current`, or `'done'` after the last one. */
export function nextQuestion(current: QuizQuestionNumber): QuizQuestionNumber | 'done' {
  const next = current + 1;
  return isQuizQuestionNumber(next) ? next : 'done';
}

/** The question before `current`, or null at `startFrom` (earlier questions were not part of this visit). */
export function previousQuestion(current: QuizQuestionNumber, startFrom: QuizQuestionNumber): QuizQuestionNumber | null {
  const previous = current - 1;
  return previous >= startFrom && isQuizQuestionNumber(previous) ? previous : null;
}
