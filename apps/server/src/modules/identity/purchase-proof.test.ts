import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../auth/session';
import { PurchaseProof } from './purchase-proof';

const owner: SessionUser = {
  id: 'user-1',
  email: 'owner@example.com',
  emailVerified: true,
  name: 'Owner',
  sessionExpiresAt: new Date('2030-01-01T00:00:00Z'),
};
const linked = { id: '5e0c1c1e-0000-4000-8000-000000000001', userId: owner.id, email: owner.email };
const someoneElses = { ...linked, userId: 'user-2' };

/** A proof over a session reader that counts its reads and answers `user`. */
function proofWithSession(user: SessionUser | null) {
  const reads = { count: 0 };
  const sessions = {
    current: async () => {
      reads.count += 1;
      return user;
    },
  };
  const proof = new PurchaseProof({ secret: 'a-test-secret-of-at-least-32-characters', slug: 'roots', secure: false }, sessions);
  return { proof, reads };
}

const noCookies = { cookies: {}, headers: {} } as FastifyRequest;

describe('PurchaseProof.owns', () => {
  it('reads the session itself when the caller has not', async () => {
    const { proof, reads } = proofWithSession(owner);
    expect(await proof.owns(noCookies, linked)).toBe(true);
    expect(await proof.owns(noCookies, someoneElses)).toBe(false);
    expect(reads.count).toBe(2);
  });

  it('uses the session user the caller already read, without reading it again', async () => {
    const { proof, reads } = proofWithSession(null);
    expect(await proof.owns(noCookies, linked, owner)).toBe(true);
    expect(await proof.owns(noCookies, someoneElses, owner)).toBe(false);
    // `null`: the caller knows there is no session; nothing to read, nothing owned.
    expect(await proof.owns(noCookies, linked, null)).toBe(false);
    expect(reads.count).toBe(0);
  });

  it('owns nothing that does not exist', async () => {
    const { proof, reads } = proofWithSession(owner);
    expect(await proof.owns(noCookies, undefined, owner)).toBe(false);
    expect(await proof.owns(noCookies, null)).toBe(false);
    expect(reads.count).toBe(0);
  });
});
