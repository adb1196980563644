import type { FastifyReply, FastifyRequest } from 'fastify';
import { signToken, verifyToken } from '../../lib/signed-token';
import type { SessionReader, SessionUser } from '../auth/session';
import { isOwner, type Owned } from './ownership';

const PURPOSE = 'purchase';
/** Purchases one browser keeps proof of (newest first); older ones are proven by signing in. */
const MAX_PURCHASES = 10;
/** How long a browser keeps the proof: past a trial and a few renewals (browsers cap at 400 days). */
const MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
const SEPARATOR = '~';

/** A subscription as an ownership check needs it. */
export type OwnedSubscription = Owned & { id: string };

/**
 * Proof of ownership of a purchase (ADR 085). Knowing a customer's email, or a subscription id,
 * proves nothing. A purchase is the buyer's when the request comes:
 * - from the browser that paid: the purchase answer sets an HttpOnly cookie of signed subscription
 *   ids, which the add-on offers, the funnel's report, finalize and the purchase lookup by id need;
 * - or from the signed-in owner (ADR 071's rule: linked to the user, or unlinked and of their
 *   verified email).
 * The emailed one-click cancel link and the emailed codes are the third kind of proof, checked
 * where they are used.
 */
export class PurchaseProof {
  readonly cookieName: string;

  constructor(
    private readonly options: { secret: string; slug: string; secure: boolean },
    private readonly sessions: Pick<SessionReader, 'current'>,
  ) {
    this.cookieName = `${options.slug}_purchases`;
  }

  /** Subscription ids whose purchase this browser made (forged or foreign entries are ignored). */
  private heldIds(request: FastifyRequest): string[] {
    const raw = request.cookies[this.cookieName];
    if (!raw) return [];
    return raw
      .split(SEPARATOR)
      .slice(0, MAX_PURCHASES)
      .map((token) => verifyToken(this.options.secret, PURPOSE, token))
      .filter((id): id is string => id !== undefined);
  }

  /** The subscriptions this browser bought (its purchase cookie), newest first. */
  heldSubscriptionIds(request: FastifyRequest): string[] {
    return this.heldIds(request);
  }

  /** True when the request comes from the browser that bought `subscriptionId`. */
  held(request: FastifyRequest, subscriptionId: string): boolean {
    return this.heldIds(request).includes(subscriptionId.toLowerCase());
  }

  private cookieValue(ids: readonly string[]): string {
    return ids.map((id) => signToken(this.options.secret, PURPOSE, id)).join(SEPARATOR);
  }

  /** The `cookie` request header of a browser that bought `ids` (what {@link grant} leaves there). */
  cookieHeader(ids: readonly string[]): string {
    return `${this.cookieName}=${this.cookieValue(ids.map((id) => id.toLowerCase()))}`;
  }

  /** Records in the buyer's browser that it made this purchase (called by every purchase answer). */
  grant(request: FastifyRequest, reply: FastifyReply, subscriptionId: string): void {
    const id = subscriptionId.toLowerCase();
    const ids = [id, ...this.heldIds(request).filter((held) => held !== id)].slice(0, MAX_PURCHASES);
    void reply.setCookie(this.cookieName, this.cookieValue(ids), {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.options.secure,
      maxAge: MAX_AGE_SECONDS,
    });
  }

  /**
   * True when the request proves ownership of `subscription`: the buyer's browser, or the signed-in
   * owner. `signedIn`: the request's session user when the caller has already read it (`null`: none),
   * so the session is not read twice; left out, it is read here when the browser holds no proof.
   */
  async owns(request: FastifyRequest, subscription: OwnedSubscription | undefined | null, signedIn?: SessionUser | null): Promise<boolean> {
    if (!subscription) return false;
    if (this.held(request, subscription.id)) return true;
    const user = signedIn === undefined ? await this.sessions.current(request).catch(() => null) : signedIn;
    return user !== null && isOwner(user, subscription);
  }
}
