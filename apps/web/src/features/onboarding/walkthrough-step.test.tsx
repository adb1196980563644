import { cleanup, fireEvent, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../lib/test-render';
import { WalkthroughStep } from './walkthrough-step';

afterEach(cleanup);

describe('the landing (issue 35: a returning customer can sign in before buying again)', () => {
  it("offers 'Already a customer? Sign in to your account' on the first slide, leading to sign-in", async () => {
    const router = renderRoutes(
      [
        { path: '/roots/', element: <WalkthroughStep onDone={vi.fn()} /> },
        { path: '/roots/sign-in', element: <p>sign-in</p> },
      ],
      '/roots/',
    );
    const offer = await screen.findByTestId('already-customer');
    expect(offer.textContent).toBe('Already a customer? Sign in to your account');
    fireEvent.click(screen.getByRole('link', { name: 'Sign in to your account' }));
    await screen.findByText('sign-in');
    expect(router.state.location.pathname).toBe('/roots/sign-in');
  });

  it('keeps the later slides to the story', async () => {
    renderRoutes([{ path: '/roots/', element: <WalkthroughStep onDone={vi.fn()} /> }], '/roots/');
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(screen.queryByTestId('already-customer')).toBeNull();
  });
});
