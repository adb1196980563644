import { errors, jwtVerify, SignJWT } from 'jose';
import { GatewayError } from '../../errors';
import { GATEWAY_UNAUTHORIZED_MESSAGE } from '@roots/contracts/gateway';

/** Audience of the SDK bearer tokens. */
export const CLIENT_TOKEN_AUDIENCE = 'roots-gateway-client';

export type ClientPrincipal = { sessionId: string; holderReference: string; expiresAtSeconds: number };

/** How long after its expiry a token may still be traded for a fresh one of its session. */
export const TOKEN_REFRESH_WINDOW_SECONDS = 24 * 60 * 60;

/** Signs and verifies the HS256 bearer tokens handed to the SDK (one per client session). */
export class BearerTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly issuer: () => string,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(principal: { sessionId: string; holderReference: string }, expiresAt: Date): Promise<string> {
    return new SignJWT({ holder: principal.holderReference })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(principal.sessionId)
      .setIssuer(this.issuer())
      .setAudience(CLIENT_TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /**
   * Throws 401 TOKEN_EXPIRED past `exp`, 401 UNAUTHORIZED for anything forged or malformed. With
   * `forRefresh`, an expired token is accepted up to {@link TOKEN_REFRESH_WINDOW_SECONDS} after `exp`.
   */
  async verify(token: string, options: { forRefresh?: boolean } = {}): Promise<ClientPrincipal> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: CLIENT_TOKEN_AUDIENCE,
        ...(options.forRefresh ? { clockTolerance: TOKEN_REFRESH_WINDOW_SECONDS } : {}),
      });
      if (typeof payload.sub !== 'string' || typeof payload.holder !== 'string' || typeof payload.exp !== 'number') {
        throw new GatewayError('UNAUTHORIZED', GATEWAY_UNAUTHORIZED_MESSAGE);
      }
      return { sessionId: payload.sub, holderReference: payload.holder, expiresAtSeconds: payload.exp };
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      if (error instanceof errors.JWTExpired) throw new GatewayError('TOKEN_EXPIRED', GATEWAY_UNAUTHORIZED_MESSAGE, { cause: error });
      throw new GatewayError('UNAUTHORIZED', GATEWAY_UNAUTHORIZED_MESSAGE, { cause: error });
    }
  }
}
