import { describe, expect, it } from 'vitest';
import { signToken } from '../../lib/signed-token';
import { cancelLinkToken } from './cancel-link';
import { UPDATE_CARD_LINK_TTL_DAYS, liveUpdateCardLink, updateCardUrl } from './update-card-link';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const CONFIG = { APP_SECRET: SECRET, publicUrl: 'https://roots.example', PRODUCT_SLUG: 'roots' };
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const issued = new Date('2026-03-01T10:00:00Z');
const DAY = 86_400_000;

/** The token of an update-card URL: its last path segment. */
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('update-card links', () => {
  it('are a page of the product, one path segment after /{slug}/update-card/', () => {
    const url = updateCardUrl(CONFIG, ID, issued);
    expect(url).toMatch(/^https:\/\/roots\.example\/roots\/update-card\/[\w-]+\.[\w-]+$/);
    // Fastify refuses params over 100 characters.
    expect(tokenOf(url).length).toBeLessThanOrEqual(100);
  });

  it('work for 30 days from the email that carries them, then no longer', () => {
    expect(UPDATE_CARD_LINK_TTL_DAYS).toBe(30);
    const token = tokenOf(updateCardUrl(CONFIG, ID, issued));
    expect(liveUpdateCardLink(SECRET, token, issued)).toBe(ID);
    expect(liveUpdateCardLink(SECRET, token, new Date(issued.getTime() + 30 * DAY - 1000))).toBe(ID);
    expect(liveUpdateCardLink(SECRET, token, new Date(issued.getTime() + 30 * DAY + 1000))).toBeUndefined();
  });

  it('are single-purpose: a cancel link or a purchase cookie entry is not an update-card link', () => {
    expect(liveUpdateCardLink(SECRET, cancelLinkToken(SECRET, ID, issued), issued)).toBeUndefined();
    expect(liveUpdateCardLink(SECRET, signToken(SECRET, 'purchase', ID), issued)).toBeUndefined();
  });

  it('refuse forged and altered tokens', () => {
    const token = tokenOf(updateCardUrl(CONFIG, ID, issued));
    expect(liveUpdateCardLink('another-secret-of-at-least-32-characters', token, issued)).toBeUndefined();
    expect(liveUpdateCardLink(SECRET, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, issued)).toBeUndefined();
  });
});
