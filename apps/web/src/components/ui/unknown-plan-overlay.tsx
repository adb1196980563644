import { formatMessage, MESSAGES } from '@roots/contracts/messages';
import { Fragment, type ReactNode } from 'react';
import { Dialog } from './dialog';

/**
 * The full-screen message of product-spec §4 for a plan query parameter whose plan id is not in the
 * catalog: the page sells nothing else in its place. Each such parameter gets the message, naming
 * it (issue 24: with two, only the first was named), with the value it held. Escape does not close
 * it (there is nothing to buy behind it); `exit` is the way out (issue 35).
 */
export function UnknownPlanOverlay({ unknown, exit }: { unknown: ReadonlyArray<{ param: string; value: string }>; exit: ReactNode }) {
  const first = unknown[0];
  if (!first) return null;
  const rest = unknown.slice(1);
  return (
    <Dialog
      role="alertdialog"
      variant="full"
      testId="unknown-plan-overlay"
      title={formatMessage(MESSAGES.unknownPlan, { parameter: first.param })}
      actions={exit}
    >
      <p>{`${first.param}=${first.value}`}</p>
      {rest.map(({ param, value }) => (
        <Fragment key={param}>
          <p className="dialog__more" data-testid="unknown-plan-more">
            {formatMessage(MESSAGES.unknownPlan, { parameter: param })}
          </p>
          <p>{`${param}=${value}`}</p>
        </Fragment>
      ))}
    </Dialog>
  );
}
