import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuizStore, type QuizQuestionNumber } from '../../lib/onboarding-store';
import { nextQuestion, previousQuestion, QUIZ_LENGTH, QUIZ_QUESTIONS, resumeQuestion } from './quiz';
import './quiz-step.css';

/**
 * One quiz question at a time, from `startFrom` to 20; choosing an option records it in the quiz
 * state and moves on, and after the last question the funnel goes on to the consent step.
 */
export function QuizStep({ startFrom, onDone }: { startFrom: QuizQuestionNumber; onDone: () => void }) {
  const { t } = useTranslation();
  const answers = useQuizStore((state) => state.quizAnswers);
  const answer = useQuizStore((state) => state.answer);
  const startQuiz = useQuizStore((state) => state.startQuiz);
  const [current, setCurrent] = useState<QuizQuestionNumber>(() => resumeQuestion(answers, startFrom));
  const question = QUIZ_QUESTIONS[current - 1]!;
  const previous = previousQuestion(current, startFrom);
  const headingId = `quiz-question-${current}`;

  useEffect(() => startQuiz(), [startQuiz]);

  const choose = (option: string) => {
    answer(current, option);
    const next = nextQuestion(current);
    if (next === 'done') onDone();
    else setCurrent(next);
  };

  return (
    <section className="step quiz" aria-labelledby={headingId} data-question={current}>
      <p className="quiz__progress-label">{t('screens.onboarding.quiz.progress', { current, total: QUIZ_LENGTH })}</p>
      <div
        className="progress"
        role="progressbar"
        aria-label={t('screens.onboarding.quiz.progressLabel')}
        aria-valuemin={0}
        aria-valuemax={QUIZ_LENGTH}
        aria-valuenow={current - 1}
      >
        <div className="progress__bar" style={{ width: `${Math.round(((current - 1) / QUIZ_LENGTH) * 100)}%` }} />
      </div>
      <h1 className="screen__title" id={headingId}>
        {t(`screens.onboarding.quiz.questions.${question.id}.title`)}
      </h1>
      <ul className="quiz__options" aria-labelledby={headingId}>
        {question.options.map((option) => (
          <li key={option}>
            <button type="button" className="button quiz__option" aria-pressed={answers[current] === option} onClick={() => choose(option)}>
              {t(`screens.onboarding.quiz.questions.${question.id}.options.${option}`)}
            </button>
          </li>
        ))}
      </ul>
      {previous !== null && (
        <button type="button" className="button button--link" onClick={() => setCurrent(previous)}>
          {t('screens.onboarding.back')}
        </button>
      )}
    </section>
  );
}
