import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import type { SessionReader, SessionUser } from '../auth/session';

export type IdentityClaim = { firebase_id?: string | undefined; apple_token?: string | undefined; email: string };
/** The signed-in buyer, with the session read once so later checks (ownership) need not read it again. */
export type VerifiedIdentity = { userId: string; user: SessionUser };

/**
 * The one identity check of the signed-in purchase endpoints (`/subs/create`,
 * `/subs/create-applepay`, `/subs/finalize`; ADR 071 supersedes ADR 033): the caller must hold a
 * live session (better-auth cookie). `firebase_id`, when sent, must be the session's user id — a
 * body can no longer name someone else. `apple_token` is accepted for wire compatibility but grants
 * nothing by itself: the session is the proof.
 * @throws AppError UNAUTHORIZED (401) with `message` without a session or with another user's id.
 */
export async function verifyBuyerIdentity(
  sessions: SessionReader,
  request: FastifyRequest,
  claim: IdentityClaim,
  message: string,
): Promise<VerifiedIdentity> {
  const user = await sessions.current(request).catch(() => null);
  if (!user) throw new AppError('UNAUTHORIZED', message);
  if (claim.firebase_id !== undefined && claim.firebase_id !== user.id) throw new AppError('UNAUTHORIZED', message);
  return { userId: user.id, user };
}
