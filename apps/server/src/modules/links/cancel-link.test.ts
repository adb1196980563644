import { describe, expect, it } from 'vitest';
import { signToken } from '../../lib/signed-token';
import { CANCEL_LINK_TTL_DAYS, cancelLinkToken, liveCancelLink, readCancelLink } from './cancel-link';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const issued = new Date('2026-03-01T10:00:00Z');
const DAY = 86_400_000;

describe('one-click cancel links', () => {
  it('work for 30 days from the email that carries them, then no longer', () => {
    expect(CANCEL_LINK_TTL_DAYS).toBe(30);
    const token = cancelLinkToken(SECRET, ID, issued);
    expect(liveCancelLink(SECRET, token, issued)).toBe(ID);
    expect(liveCancelLink(SECRET, token, new Date(issued.getTime() + 30 * DAY - 1000))).toBe(ID);
    expect(liveCancelLink(SECRET, token, new Date(issued.getTime() + 30 * DAY + 1000))).toBeUndefined();
    // Expired, it still says which purchase it named (the operator's cancellation channels).
    expect(readCancelLink(SECRET, token)?.subscriptionId).toBe(ID);
  });

  it('fit one URL path segment (Fastify refuses params over 100 characters)', () => {
    expect(cancelLinkToken(SECRET, ID, issued).length).toBeLessThanOrEqual(100);
  });

  it('are single-purpose: a purchase cookie entry or an old never-expiring link is not a cancel link', () => {
    expect(liveCancelLink(SECRET, signToken(SECRET, 'purchase', ID), issued)).toBeUndefined();
    expect(liveCancelLink(SECRET, signToken(SECRET, 'cancel', ID), issued)).toBeUndefined();
  });

  it('refuse forged and altered tokens', () => {
    const token = cancelLinkToken(SECRET, ID, issued);
    expect(liveCancelLink('another-secret-of-at-least-32-characters', token, issued)).toBeUndefined();
    expect(liveCancelLink(SECRET, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, issued)).toBeUndefined();
  });
});
