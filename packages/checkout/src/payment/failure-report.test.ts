import { describe, expect, it } from 'vitest';
import { CHECKOUT_ERROR_CODES, FAILURE_REASONS, failureReasonOf } from '../core/errors/checkout-error';
import { failureEvent, failureScreenText } from './failure-report';

describe('failure events and the failure screen (checkout-spec §2, §3, §4)', () => {
  it('every internal code maps to one of the four failure reasons', () => {
    for (const code of CHECKOUT_ERROR_CODES) expect(FAILURE_REASONS).toContain(failureReasonOf(code));
    expect(failureReasonOf('UNSUCCESSFUL_REQUEST')).toBe('AUTHORIZATION_ERROR');
    expect(failureReasonOf('VAULT_NETWORK_ERROR')).toBe('AUTHORIZATION_ERROR');
    expect(failureReasonOf('MAX_POLL_ATTEMPTS_EXCEEDED')).toBe('AUTHORIZATION_ERROR');
    expect(failureReasonOf('UNAUTHORIZED')).toBe('AUTHENTICATION_ERROR');
    expect(failureReasonOf('BEARER_TOKEN_REJECTED')).toBe('AUTHENTICATION_ERROR');
    expect(failureReasonOf('VALIDATION_FAILED')).toBe('VALIDATION_FAILED');
    expect(failureReasonOf('APPLE_PAY_SDK_LOAD_FAILED')).toBe('UNKNOWN_ERROR');
  });

  it('internal codes and text go to the cause, the event carries a reason and its spec message', () => {
    expect(
      failureEvent({ kind: 'failure', code: 'UNSUCCESSFUL_REQUEST', message: 'Request failed with status code 500', status: 500 }),
    ).toEqual({
      code: 'AUTHORIZATION_ERROR',
      message: 'Authorization Failed',
      cause: { code: 'UNSUCCESSFUL_REQUEST', message: 'Request failed with status code 500', status: 500 },
    });
    expect(failureEvent({ kind: 'failure', code: 'COLLECT_OPERATION_FAILED', message: 'the vault answered no card token' })).toMatchObject({
      code: 'AUTHORIZATION_ERROR',
      cause: { code: 'COLLECT_OPERATION_FAILED' },
    });
    expect(failureEvent({ kind: 'failure', code: 'AUTHORIZATION_ERROR', message: 'Your card was declined.' })).toEqual({
      code: 'AUTHORIZATION_ERROR',
      message: 'Your card was declined.',
    });
  });

  it('the screen never shows internal text: a translation, the execution reason, or the default', () => {
    const internal = failureEvent({ kind: 'failure', code: 'UNSUCCESSFUL_REQUEST', message: 'Request failed with status code 500' });
    expect(failureScreenText(internal, {})).toBe('Authorization failed, please try again.');
    expect(failureScreenText(internal, { defaultFailureMessage: 'Try another card' })).toBe('Try another card');
    expect(failureScreenText(internal, { translations: { 'Authorization Failed': 'Autorização falhou' } })).toBe('Autorização falhou');
    expect(failureScreenText(internal, { translations: { 'Request failed with status code 500': 'leak' } })).not.toContain('leak');
    const declined = failureEvent({ kind: 'failure', code: 'AUTHORIZATION_ERROR', message: 'Your card was declined.' });
    expect(failureScreenText(declined, {})).toBe('Your card was declined.');
    expect(failureScreenText(declined, { translations: { 'Your card was declined.': 'Cartão recusado.' } })).toBe('Cartão recusado.');
  });
});
