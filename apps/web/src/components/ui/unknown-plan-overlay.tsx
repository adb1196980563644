import { formatMessage, MESSAGES } from '@roots/contracts/messages';

/**
 * The full-screen message of product-spec §4 for a plan query parameter whose plan id is not in the
 * catalog: the page sells nothing else in its place. Names the first such parameter in the heading
 * and lists every one as `param=value`.
 */
export function UnknownPlanOverlay({ unknown }: { unknown: ReadonlyArray<{ param: string; value: string }> }) {
  const first = unknown[0];
  if (!first) return null;
  return (
    <div className="overlay" role="alertdialog" aria-modal="true" aria-labelledby="unknown-plan" data-testid="unknown-plan-overlay">
      <div className="overlay__content">
        <h1 id="unknown-plan">{formatMessage(MESSAGES.unknownPlan, { parameter: first.param })}</h1>
        <p>{unknown.map(({ param, value }) => `${param}=${value}`).join(', ')}</p>
      </div>
    </div>
  );
}
