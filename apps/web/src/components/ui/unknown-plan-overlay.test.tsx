import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { UnknownPlanOverlay } from './unknown-plan-overlay';

afterEach(cleanup);

describe('the unknown-plan overlay (product-spec §4)', () => {
  it('names every bad plan parameter, not only the first (issue 24)', () => {
    render(
      <UnknownPlanOverlay
        unknown={[
          { param: 'plan', value: 'roots_nope' },
          { param: 'skip_trial_plan', value: 'roots_gone' },
        ]}
        exit={<a href="/roots/">Go to the start</a>}
      />,
    );
    const overlay = screen.getByRole('alertdialog', { name: "Can't find a plan for the parameter 'plan'" });
    expect(overlay.textContent).toContain("Can't find a plan for the parameter 'skip_trial_plan'");
    expect(overlay.textContent).toContain('plan=roots_nope');
    expect(overlay.textContent).toContain('skip_trial_plan=roots_gone');
    // The way out is inside the message (issue 35).
    expect(overlay.querySelector('a')?.textContent).toBe('Go to the start');
  });

  it('shows nothing when every parameter is known', () => {
    render(<UnknownPlanOverlay unknown={[]} exit={null} />);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
