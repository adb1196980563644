import type { DisputeQueue } from '@roots/contracts/admin-queues';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatLocalTime } from './admin-format';
import { QueuesView } from './admin-queues';

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const DISPUTES: DisputeQueue = {
  items: [
    {
      dispute_id: 'dp_abcdefghijklmnop',
      execution_id: 'exe_disputed00000001',
      subscription_id: '0b6a1f3e-4c2d-4e8f-9a7b-1c2d3e4f5a6b',
      email: 'buyer@example.com',
      plan_id: 'roots_3d1_7d2499',
      plan_name: 'Weekly Plan',
      amount_minor: 2499,
      currency: 'USD',
      reason: 'fraudulent',
      status: 'needs_response',
      evidence_due_by: '2026-12-03T16:00:00.000Z',
      opened_at: '2026-11-26T16:00:00.000Z',
    },
    {
      dispute_id: 'dp_qrstuvwxyz012345',
      execution_id: 'exe_nopurchase000001',
      subscription_id: null,
      email: null,
      plan_id: null,
      plan_name: null,
      amount_minor: 4800,
      currency: 'EUR',
      reason: 'fraudulent',
      status: 'needs_response',
      evidence_due_by: '2026-12-02T09:30:00.000Z',
      opened_at: '2026-11-25T09:30:00.000Z',
    },
  ],
  page: 1,
  page_size: 50,
  total: 2,
};

describe('the operator’s Disputes queue (ADR 158)', () => {
  it('reads the first page of disputes and shows each with local times, customer, plan name and amount', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.startsWith('/api/admin/queues/disputes') ? answer(200, DISPUTES) : answer(200, { items: [], page: 1, page_size: 50, total: 0 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(<QueuesView />);
    fireEvent.click(screen.getByRole('button', { name: 'Disputes' }));

    const table = await screen.findByTestId('queue-disputes');
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/admin/queues/disputes?page=1&page_size=50');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      [
        formatLocalTime('2026-11-26T16:00:00.000Z'),
        'buyer@example.com',
        'Weekly Plan',
        '$24.99',
        'fraudulent',
        'needs response',
        formatLocalTime('2026-12-03T16:00:00.000Z'),
        'exe_disputed00000001',
      ],
      [
        formatLocalTime('2026-11-25T09:30:00.000Z'),
        'unknown',
        'unknown',
        '48.00 EUR',
        'fraudulent',
        'needs response',
        formatLocalTime('2026-12-02T09:30:00.000Z'),
        'exe_nopurchase000001',
      ],
    ]);
    // Local times name their zone; the ISO text never shows.
    expect(rows[0]![0]).not.toContain('2026-11-26T');
    expect(screen.getByText('Page 1 of 1 (2 in all)')).toBeTruthy();
  });
});
