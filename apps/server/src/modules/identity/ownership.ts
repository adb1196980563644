import { API_MESSAGES } from '@roots/contracts';
import { AppError } from '../../errors';
import { normalizeEmail } from '../../lib/mask';
import type { SessionUser } from '../auth/session';

/** Something a user may own: linked by user id, or (before linking) bought with their email. */
export type Owned = { userId: string | null; email?: string | null };

/**
 * True when `user` owns `resource`: it is linked to the user, or it is not linked to anyone and
 * carries the user's verified email (a purchase made before signing in). Another user's linked
 * resource is never owned, whatever its email.
 */
export function isOwner(user: SessionUser, resource: Owned): boolean {
  if (resource.userId !== null) return resource.userId === user.id;
  return user.emailVerified && !!resource.email && normalizeEmail(resource.email) === normalizeEmail(user.email);
}

/**
 * The one ownership check of the signed-in area: every account, subscription and report endpoint
 * calls it. A missing resource and someone else's answer the same 404, so ids cannot be probed.
 * @throws AppError NOT_FOUND (404)
 */
export function assertOwner<T extends Owned>(user: SessionUser, resource: T | undefined | null): T {
  if (!resource || !isOwner(user, resource)) throw new AppError('NOT_FOUND', API_MESSAGES.notFound);
  return resource;
}
