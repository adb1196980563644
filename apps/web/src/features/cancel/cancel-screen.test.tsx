import { MESSAGES } from '@roots/contracts/messages';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../lib/i18n';
import { UnsubscriptionScreen } from './cancel-screen';

const TOKEN = 'Y2FuY2VsOjE.abcdefabcdefabcdefabcdefabcdefab';

function renderAt(url: string) {
  return render(
    <I18nextProvider i18n={createI18n('Roots')}>
      <MemoryRouter initialEntries={[url]}>
        <UnsubscriptionScreen />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the cancel page opened from the emailed link (ADR 085)', () => {
  it('asks first: opening the link sends nothing; the button cancels by POSTing the link', async () => {
    const fetchMock = vi.fn(async () => answer(200, { message: MESSAGES.subscriptionCanceled }));
    vi.stubGlobal('fetch', fetchMock);
    renderAt(`/roots/unsubscription?link=${encodeURIComponent(TOKEN)}`);
    expect(screen.getByRole('heading', { name: 'Cancel your subscription?' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel my subscription' }));
    expect(await screen.findByText(MESSAGES.subscriptionCanceled)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/api/cancel-subscription/${encodeURIComponent(TOKEN)}`);
    expect(init.method).toBe('POST');
  });

  it('keeps the subscription when the customer says so, without a request', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderAt(`/roots/unsubscription?link=${encodeURIComponent(TOKEN)}`);
    fireEvent.click(screen.getByRole('button', { name: 'Keep my subscription' }));
    expect(screen.getByRole('status').textContent).toBe('Nothing changed: your subscription continues.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('falls back to asking by email when the link is stale', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(404, { error: MESSAGES.noSubscriptions, code: 'NOT_FOUND' })),
    );
    renderAt(`/roots/unsubscription?link=${encodeURIComponent(TOKEN)}`);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel my subscription' }));
    expect(await screen.findByRole('button', { name: 'Send code' })).toBeTruthy();
  });
});
