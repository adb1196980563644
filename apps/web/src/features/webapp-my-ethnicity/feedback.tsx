import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_REPORT_FEEDBACK_CHARS } from '@roots/contracts/reports';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { errorMessage } from '../../lib/api-client';
import { sendFeedback } from './api/send-feedback';

/** Which report the feedback is about, and who sends it. */
export type FeedbackTarget = { reportId: string; subscriptionId: string; userId: string };

/**
 * 'Do these results look correct?' (product-spec §2). The answer is sent at once, then the
 * feedback screen opens for an optional comment.
 */
export function FeedbackQuestion({ target, onAnswered }: { target: FeedbackTarget; onAnswered: (looksCorrect: boolean) => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const answer = async (looksCorrect: boolean) => {
    setSending(true);
    setError(null);
    try {
      await sendFeedback({ ...target, feedback: { report_id: target.reportId, looks_correct: looksCorrect } });
      onAnswered(looksCorrect);
    } catch (reason) {
      setError(errorMessage(reason));
    } finally {
      setSending(false);
    }
  };
  return (
    <div role="group" aria-labelledby="feedback-question" className="feedback-question">
      <p id="feedback-question" className="feedback-question__text">
        {t('webapp.myEthnicity.feedback.question')}
      </p>
      <div className="feedback-question__answers">
        <button type="button" className="button button--secondary" disabled={sending} onClick={() => void answer(true)}>
          {t('webapp.myEthnicity.feedback.yes')}
        </button>
        <button type="button" className="button button--secondary" disabled={sending} onClick={() => void answer(false)}>
          {t('webapp.myEthnicity.feedback.no')}
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
    </div>
  );
}

const feedbackFormSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, { error: 'This field is required!' })
    .max(MAX_REPORT_FEEDBACK_CHARS, { error: 'You have reached the maximum length' }),
});
type FeedbackForm = z.infer<typeof feedbackFormSchema>;

/** The feedback screen (product-spec §2): 'Tell us your feedback please' and a text field, sent with the answer. */
export function FeedbackView({ target, looksCorrect }: { target: FeedbackTarget; looksCorrect: boolean }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<{ sent: boolean; message: string } | null>(null);
  const { register, handleSubmit, formState } = useForm<FeedbackForm>({ resolver: zodResolver(feedbackFormSchema) });
  const send = async ({ text }: FeedbackForm) => {
    setStatus(null);
    try {
      await sendFeedback({ ...target, feedback: { report_id: target.reportId, looks_correct: looksCorrect, text } });
      setStatus({ sent: true, message: t('webapp.myEthnicity.feedback.sent') });
    } catch (reason) {
      setStatus({ sent: false, message: errorMessage(reason) });
    }
  };
  const { errors } = formState;
  if (status?.sent) return <p role="status">{status.message}</p>;
  return (
    <form noValidate onSubmit={handleSubmit(send)} className="feedback-form">
      <label className="field" htmlFor="feedback-text">
        <span className="field__label">{t('webapp.myEthnicity.feedback.label')}</span>
        <textarea
          id="feedback-text"
          rows={6}
          aria-invalid={!!errors.text}
          aria-describedby={errors.text ? 'feedback-text-error' : undefined}
          {...register('text')}
        />
      </label>
      {errors.text && (
        <p id="feedback-text-error" className="field-error" role="alert">
          {errors.text.message}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={formState.isSubmitting}>
        {t('webapp.myEthnicity.feedback.send')}
      </button>
      {status && <p role="alert">{status.message}</p>}
    </form>
  );
}
