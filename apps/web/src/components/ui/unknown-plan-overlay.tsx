import { formatMessage, MESSAGES } from '@roots/contracts/messages';
import { Fragment } from 'react';

/**
 * The full-screen message of product-spec §4 for a plan query parameter whose plan id is not in the
 * catalog: the page sells nothing else in its place. Each such parameter gets the message, naming
 * it (issue 24: with two, only the first was named), with the value it held.
 */
export function UnknownPlanOverlay({ unknown }: { unknown: ReadonlyArray<{ param: string; value: string }> }) {
  const first = unknown[0];
  if (!first) return null;
  const rest = unknown.slice(1);
  return (
    <div className="overlay" role="alertdialog" aria-modal="true" aria-labelledby="unknown-plan" data-testid="unknown-plan-overlay">
      <div className="overlay__content">
        <h1 id="unknown-plan">{formatMessage(MESSAGES.unknownPlan, { parameter: first.param })}</h1>
        <p>{`${first.param}=${first.value}`}</p>
        {rest.map(({ param, value }) => (
          <Fragment key={param}>
            <p className="overlay__more" data-testid="unknown-plan-more">
              {formatMessage(MESSAGES.unknownPlan, { parameter: param })}
            </p>
            <p>{`${param}=${value}`}</p>
          </Fragment>
        ))}
      </div>
    </div>
  );
}
