import { describe, expect, it } from 'vitest';
import type { Execution } from '@roots/contracts/gateway';
import { isFinalExecutionStatus as isFinalStatus } from '@roots/contracts/gateway';
import { failureMessage, nextStep, threeDsPopupSize } from './execution-machine';

const links = { execution: 'https://gw/x', authorize: 'https://gw/a' };
const exec = (overrides: Partial<Execution>) => ({ status: 'authorizeRequested', links, ...overrides }) as Execution;
const declined = {
  code: 'authorizeFailed' as const,
  errors: [{ reason: { result: 'Your card was declined.', code: 'card_declined' as const, type: 'AUTHORIZATION_ERROR' as const } }],
};

describe('execution state machine (checkout-spec §4)', () => {
  it('polls while created or authorizeRequested, confirms on confirmRequested', () => {
    expect(nextStep(exec({ status: 'created' }))).toEqual({ kind: 'poll' });
    expect(nextStep(exec({ status: 'authorizeRequested' }))).toEqual({ kind: 'poll' });
    expect(nextStep(exec({ status: 'confirmRequested' }))).toEqual({ kind: 'confirm' });
  });
  it('succeeds on authorizeSuccessful', () => {
    expect(nextStep(exec({ status: 'authorizeSuccessful' }))).toEqual({ kind: 'success' });
  });
  it('fails with AUTHORIZATION_ERROR and the first reason, or Authorization Failed', () => {
    expect(nextStep(exec({ status: 'authorizeFailed', finalState: declined }))).toEqual({
      kind: 'failure',
      code: 'AUTHORIZATION_ERROR',
      message: 'Your card was declined.',
    });
    expect(nextStep(exec({ status: 'authorizeFailed' }))).toMatchObject({ message: 'Authorization Failed' });
    expect(nextStep(exec({ status: 'authorizeFailed', finalState: declined }), { afterChallenge: true })).toMatchObject({
      message: 'Authorization failed after 3DS challenge.',
    });
  });
  it('pending with a redirect link redirects', () => {
    expect(nextStep(exec({ status: 'authorizePending', links: { ...links, redirect: 'https://gw/hpp/1' } }))).toEqual({
      kind: 'redirect',
      url: 'https://gw/hpp/1',
    });
  });
  it('pending with a 3-D Secure action opens the challenge; on the Google-type wallet starts its 3DS flow', () => {
    const threeDS = { href: 'https://gw/3ds/1', mode: 'popup' as const, messageOrigin: 'https://gw' };
    expect(nextStep(exec({ status: 'authorizePending', links: { ...links, threeDS } }))).toEqual({ kind: 'threeDS', ...threeDS });
    expect(nextStep(exec({ status: 'authorizePending', paymentMethodCode: 'googlePay', links: { ...links, threeDS } }))).toEqual({
      kind: 'googlePay3DS',
      href: threeDS.href,
    });
    expect(nextStep(exec({ status: 'authorizePending', links: { ...links, threeDS } }), { afterChallenge: true })).toEqual({
      kind: 'pending',
    });
  });
  it('pending without an action is pending', () => {
    expect(nextStep(exec({ status: 'authorizePending' }))).toEqual({ kind: 'pending' });
  });
  it('knows the final statuses', () => {
    expect(
      ['authorizeSuccessful', 'authorizePending', 'authorizeFailed'].every((status) => isFinalStatus(status as Execution['status'])),
    ).toBe(true);
    expect(isFinalStatus('authorizeRequested')).toBe(false);
    expect(failureMessage({ finalState: { code: 'authorizeFailed', errors: [] } })).toBe('Authorization Failed');
  });
});

describe('3-D Secure popup size (checkout-spec §9)', () => {
  it.each([
    [320, 250, 400],
    [400, 390, 400],
    [550, 500, 600],
    [1280, 600, 400],
  ])('screen %i → %ix%i', (screen, width, height) => {
    expect(threeDsPopupSize(screen)).toEqual({ width, height });
  });
});
