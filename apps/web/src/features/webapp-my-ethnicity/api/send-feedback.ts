import { reportUpdateResponseSchema, type ReportFeedback } from '@roots/contracts/reports';
import { postParsed } from '../../../lib/api-client';

/**
 * Sends the answer to 'Do these results look correct?' (and the feedback screen's text) with
 * POST /report/update, the report service's signed-in write (ADR 075). A later answer replaces an
 * earlier one.
 */
export async function sendFeedback(request: { subscriptionId: string; userId: string; feedback: ReportFeedback }): Promise<void> {
  await postParsed(
    '/report/update',
    { subscription_id: request.subscriptionId, userId: request.userId, feedback: request.feedback },
    reportUpdateResponseSchema,
  );
}
