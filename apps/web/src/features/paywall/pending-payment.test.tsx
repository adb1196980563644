import type { PaymentStatusResponse } from '@roots/contracts/subscriptions';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestError } from '../../lib/api-client';
import { createI18n } from '../../lib/i18n';
import { PendingPayment } from './pending-payment';

afterEach(cleanup);

const EMAIL = 'buyer@example.com';
const flush = () =>
  act(async () => {
    for (let tick = 0; tick < 8; tick += 1) await Promise.resolve();
  });

/** The screen over a server whose status reads answer `statuses` in turn (then pending). */
async function renderPending(statuses: PaymentStatusResponse[]) {
  const status = vi.fn<() => Promise<PaymentStatusResponse>>();
  for (const answer of statuses) status.mockResolvedValueOnce(answer);
  status.mockResolvedValue({ status: 'pending' });
  const calls = { create: vi.fn(async () => Promise.reject(new RequestError('pending', 'CONFLICT', 409))), status };
  const onPayAnotherWay = vi.fn();
  const onPurchased = vi.fn();
  render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <PendingPayment email={EMAIL} calls={calls} onPurchased={onPurchased} onPayAnotherWay={onPayAnotherWay} />
    </I18nextProvider>,
  );
  await flush();
  const checkAgain = async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Check again now' }));
    await flush();
  };
  return { onPayAnotherWay, onPurchased, checkAgain };
}

describe('the pending payment screen (issue 24)', () => {
  it('offers to pay another way and says what happens to a late confirmation, in plain words', async () => {
    const { onPayAnotherWay } = await renderPending([]);
    const section = screen.getByTestId('payment-pending');
    expect(section.dataset.state).toBe('pending');
    const text = section.textContent ?? '';
    expect(text).toContain('Payment pending');
    expect(text).toContain(`we refund it automatically and tell you at ${EMAIL}`);
    expect(text).not.toMatch(/3-?D|3DS|Secure|Nothing more is needed/i);
    fireEvent.click(screen.getByRole('button', { name: 'Pay another way' }));
    expect(onPayAnotherWay).toHaveBeenCalledTimes(1);
  });

  it('"Check again now" shows its answer: still pending, then expired with a way to pay again', async () => {
    const { checkAgain, onPayAnotherWay } = await renderPending([{ status: 'pending' }, { status: 'expired' }]);
    await checkAgain();
    expect(screen.getByTestId('pending-check').textContent).toBe('Checked just now: your bank has still not confirmed this payment.');
    await checkAgain();
    const section = screen.getByTestId('payment-pending');
    expect(section.dataset.state).toBe('expired');
    expect(section.textContent).toContain('nothing was charged');
    fireEvent.click(screen.getByRole('button', { name: 'Pay again' }));
    expect(onPayAnotherWay).toHaveBeenCalledTimes(1);
  });

  it('a payment refunded because the plan was paid another way says so', async () => {
    const { checkAgain } = await renderPending([{ status: 'refunded' }]);
    await checkAgain();
    expect(screen.getByTestId('payment-pending').textContent).toContain('It is refunded automatically');
  });

  it('paid: hands the subscription over', async () => {
    const { checkAgain, onPurchased } = await renderPending([{ status: 'paid', id: '7c3f2f0e-8f0a-4c57-9a8e-0d3c9f3b1a11' }]);
    await checkAgain();
    expect(onPurchased).toHaveBeenCalledWith('7c3f2f0e-8f0a-4c57-9a8e-0d3c9f3b1a11');
  });
});
