import type { ReportStatus } from '@roots/contracts/reports';

/**
 * What can happen to a report. Every status change goes through {@link transition}.
 * - `claimed`: a worker of this process took the photo for analysis.
 * - `analysed`: the engine produced a result; the content is stored.
 * - `rejected`: the engine refused the photo (no face, not an image, …) or failed.
 * - `timed_out`: still open at its deadline (the process died mid-analysis, or the queue stalled).
 */
export type ReportEvent = 'claimed' | 'analysed' | 'rejected' | 'timed_out';

export class InvalidReportTransitionError extends Error {
  constructor(
    readonly from: ReportStatus,
    readonly event: ReportEvent,
  ) {
    super(`report cannot take '${event}' while ${from}`);
    this.name = 'InvalidReportTransitionError';
  }
}

/**
 * The report state machine (ADR 060).
 *
 * ```
 * pending ─claimed→ processing ─analysed→ completed
 *                   processing ─rejected→ failed
 * pending|processing ─timed_out→ expired
 * ```
 * `completed`, `failed` and `expired` are final.
 * @throws InvalidReportTransitionError for any other pair.
 */
export function transition(from: ReportStatus, event: ReportEvent): ReportStatus {
  switch (from) {
    case 'pending':
      switch (event) {
        case 'claimed':
          return 'processing';
        case 'timed_out':
          return 'expired';
        case 'analysed':
        case 'rejected':
          throw new InvalidReportTransitionError(from, event);
        default:
          return unreachable(event);
      }
    case 'processing':
      switch (event) {
        case 'analysed':
          return 'completed';
        case 'rejected':
          return 'failed';
        case 'timed_out':
          return 'expired';
        case 'claimed':
          throw new InvalidReportTransitionError(from, event);
        default:
          return unreachable(event);
      }
    case 'completed':
    case 'failed':
    case 'expired':
      throw new InvalidReportTransitionError(from, event);
    default:
      return unreachable(from);
  }
}

/** The statuses from which `event` may move a report (what a guarded UPDATE matches on). */
export function statusesAccepting(event: ReportEvent): ReportStatus[] {
  const all: ReportStatus[] = ['pending', 'processing', 'completed', 'failed', 'expired'];
  return all.filter((status) => {
    try {
      transition(status, event);
      return true;
    } catch (error) {
      if (error instanceof InvalidReportTransitionError) return false;
      throw error;
    }
  });
}

function unreachable(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}
