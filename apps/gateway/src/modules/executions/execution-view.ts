import type { Dispute, Execution, ExecutionStatus, FinalState, Refund } from '@roots/contracts/gateway';
import type { InstrumentRow } from '../vault/vault.repository';
import type { DisputeRow, ExecutionRow, RefundRow } from './executions.repository';
import type { PageTokens } from '../page-token/page-token';

/** Path of each hosted page by method code: pix has its own page, every other redirect the generic one. */
export function pagePathFor(paymentMethodCode: string | null): 'pix' | 'hpp' {
  return paymentMethodCode === 'pix' ? 'pix' : 'hpp';
}

export function refundView(row: RefundRow): Refund {
  return {
    id: row.id,
    executionId: row.executionId,
    amount: { value: row.amountValue, currency: row.currency },
    ...(row.reason ? { reason: row.reason } : {}),
    status: 'succeeded',
    createdAt: row.createdAt.toISOString(),
  };
}

export function disputeView(row: DisputeRow): Dispute {
  return {
    id: row.id,
    executionId: row.executionId,
    amount: { value: row.amountValue, currency: row.currency },
    reason: row.reason as Dispute['reason'],
    status: row.status as Dispute['status'],
    evidenceDueBy: row.evidenceDueBy.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    evidenceSubmittedAt: row.evidenceSubmittedAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

/** Builds the wire execution (links on the gateway's public origin) from its row. */
export function executionView(
  row: ExecutionRow,
  context: {
    publicUrl: string;
    pageTokens: PageTokens;
    instrument?: InstrumentRow | undefined;
    refunds: RefundRow[];
    dispute?: DisputeRow | undefined;
  },
): Execution {
  const base = `${context.publicUrl}/v1/executions/${row.id}`;
  const status = row.status as ExecutionStatus;
  const pageToken = () => context.pageTokens.sign(row.id);
  const links: Execution['links'] = { execution: base, authorize: `${base}/authorize` };
  if (status === 'confirmRequested' && row.confirmAction) {
    links.confirm = {
      href: `${base}/confirm`,
      action: { type: row.confirmAction.type as 'payPalApproval' | 'googlePayPaymentData', parameters: row.confirmAction.parameters },
    };
  }
  if (status === 'authorizePending' && row.challenge) {
    links.threeDS = {
      href: `${context.publicUrl}/3ds/${row.id}?t=${pageToken()}`,
      mode: 'popup',
      messageOrigin: new URL(context.publicUrl).origin,
    };
  } else if (status === 'authorizePending') {
    links.redirect = `${context.publicUrl}/${pagePathFor(row.paymentMethodCode)}/${row.id}?t=${pageToken()}`;
  }
  const instrument = context.instrument;
  return {
    id: row.id,
    status,
    amount: { value: row.amountValue, currency: row.currency },
    holderReference: row.holderReference,
    ...(row.orderReference ? { orderReference: row.orderReference } : {}),
    ...(row.paymentMethodCode ? { paymentMethodCode: row.paymentMethodCode } : {}),
    ...(row.integrationType ? { integrationType: row.integrationType as 'api' | 'hpp' } : {}),
    ...(instrument
      ? {
          instrument: {
            id: instrument.id,
            ...(instrument.network ? { network: instrument.network as NonNullable<Execution['instrument']>['network'] } : {}),
            bin: instrument.bin,
            last4: instrument.last4,
            status: instrument.status as NonNullable<Execution['instrument']>['status'],
          },
        }
      : {}),
    merchantInitiated: row.merchantInitiated,
    ...(row.finalState ? { finalState: row.finalState as FinalState } : {}),
    links,
    amountRefunded: row.amountRefunded,
    refunds: context.refunds.map(refundView),
    ...(context.dispute ? { dispute: disputeView(context.dispute) } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
