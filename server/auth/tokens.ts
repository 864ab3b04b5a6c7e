// Access and refresh tokens. Both are HS256 JWTs with the algorithm pinned on verification (so
// `alg: none` and other algorithms are refused) and a `typ` claim, so one kind is never accepted as
// the other. Refresh tokens are also rows in `refresh_tokens`: each is rotated exactly once (a
// conditional UPDATE decides the winner among parallel requests) and a token presented again after
// the grace window is treated as stolen: its whole family is revoked.

import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { sql } from 'kysely';
import { isUuid } from '../../src/domain/suggestion';
import type { TokenPair } from '../../src/domain/user';
import type { Database, Queryable } from '../db/database';
import { AppError, TOKEN_EXPIRED_MESSAGE } from '../errors';

export const ACCESS_TTL_SECONDS = 15 * 60;
export const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
const ALGORITHM = 'HS256';

export interface TokenService {
  issuePair(userId: string, tx?: Queryable, family?: string): Promise<TokenPair>;
  /** The user id of a valid access token; 403 `Token Expired.` when expired, 401 otherwise. */
  verifyAccess(token: string): Promise<string>;
  /** Rotates a refresh token into a new pair of the same family. */
  rotate(refreshToken: string): Promise<TokenPair>;
  /** Revokes the family of a refresh token (sign-out); silent for unknown or forged tokens. */
  revokeFamilyOf(refreshToken: string): Promise<void>;
  revokeAllOf(userId: string, tx?: Queryable): Promise<void>;
}

/** The configured secret, or one generated at first start and kept in `settings` (shared by every node). */
export async function resolveJwtSecret(db: Database, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db.kysely
    .insertInto('settings')
    .values({ key: 'jwt_secret', value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.kysely.selectFrom('settings').select('value').where('key', '=', 'jwt_secret').executeTakeFirst();
  if (!row) throw new Error('settings.jwt_secret is missing after insert');
  return new TextEncoder().encode(row.value);
}

const unauthorized = () => new AppError('unauthorized', 401);

async function revokeFamily(db: Queryable, family: string): Promise<void> {
  await db.kysely
    .updateTable('refresh_tokens')
    .set((eb) => ({ revoked_at: eb.fn<Date>('now') }))
    .where('family', '=', family)
    .where('revoked_at', 'is', null)
    .execute();
}

export function createTokenService(db: Database, secret: Uint8Array, reuseGraceMs: number): TokenService {
  async function verify(token: string): Promise<JWTPayload> {
    const { payload } = await jwtVerify(token, secret, { algorithms: [ALGORITHM] });
    return payload;
  }

  async function issuePair(userId: string, tx: Queryable = db, family: string = randomUUID()): Promise<TokenPair> {
    const jti = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const access = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt(now)
      .setExpirationTime(now + ACCESS_TTL_SECONDS)
      .sign(secret);
    const refresh = await new SignJWT({ typ: 'refresh', fam: family })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(userId)
      .setJti(jti)
      .setIssuedAt(now)
      .setExpirationTime(now + REFRESH_TTL_SECONDS)
      .sign(secret);
    await tx.kysely
      .insertInto('refresh_tokens')
      .values({ jti, family, user_id: userId, expires_at: new Date((now + REFRESH_TTL_SECONDS) * 1000) })
      .execute();
    return { access_token: access, refresh_token: refresh };
  }

  async function verifyAccess(token: string): Promise<string> {
    let payload: JWTPayload;
    try {
      payload = await verify(token);
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        // Only a genuine access token that has expired gets the refresh-me answer.
        if (error.payload.typ === 'access') throw new AppError('tokenExpired', 403, { literalMessage: TOKEN_EXPIRED_MESSAGE });
      }
      throw unauthorized();
    }
    if (payload.typ !== 'access' || typeof payload.sub !== 'string') throw unauthorized();
    return payload.sub;
  }

  interface RefreshClaims {
    jti: string;
    family: string;
    userId: string;
  }

  async function verifyRefresh(token: string): Promise<RefreshClaims> {
    let payload: JWTPayload;
    try {
      payload = await verify(token);
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired && error.payload.typ === 'refresh') throw new AppError('refreshTokenExpired', 401);
      throw new AppError('refreshTokenInvalid', 401);
    }
    const { typ, jti, fam, sub } = payload;
    // Ids we signed are uuids; checked anyway, so a claim never reaches a uuid column as anything else.
    if (typ !== 'refresh' || !isUuid(jti) || !isUuid(fam) || !isUuid(sub)) {
      throw new AppError('refreshTokenInvalid', 401);
    }
    return { jti, family: fam, userId: sub };
  }

  async function rotate(refreshToken: string): Promise<TokenPair> {
    const claims = await verifyRefresh(refreshToken);
    const pair = await db.transaction(async (tx) => {
      // The single winner among concurrent uses of this token: only one UPDATE can see rotated_at NULL.
      const won = await tx.kysely
        .updateTable('refresh_tokens')
        .set((eb) => ({ rotated_at: eb.fn<Date>('now') }))
        .where('jti', '=', claims.jti)
        .where('rotated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where((eb) => eb('expires_at', '>', eb.fn<Date>('now')))
        .returning(['user_id', 'family'])
        .executeTakeFirst();
      if (!won) return null;
      const user = await tx.kysely.selectFrom('users').select('active').where('id', '=', won.user_id).executeTakeFirst();
      if (!user?.active) return null;
      return issuePair(won.user_id, tx, won.family);
    });
    if (pair) return pair;

    const row = await db.kysely
      .selectFrom('refresh_tokens')
      .select((eb) => [
        'family',
        eb('revoked_at', 'is not', null).as('revoked'),
        // Measured on the database's clock, the one that wrote rotated_at.
        eb.and([
          eb('rotated_at', 'is not', null),
          eb('rotated_at', '<', sql<Date>`now() - (${reuseGraceMs}::double precision * interval '1 millisecond')`),
        ]).as('reused'),
      ])
      .where('jti', '=', claims.jti)
      .executeTakeFirst();
    if (row?.reused && !row.revoked) {
      // Presented again well after it was exchanged: someone else holds a copy. End the whole session.
      await revokeFamily(db, row.family);
    }
    throw new AppError('refreshTokenInvalid', 401);
  }

  async function revokeFamilyOf(refreshToken: string): Promise<void> {
    let payload: JWTPayload;
    try {
      // An expired token may still name a live family (its successors): sign-out ends it anyway.
      payload = (await jwtVerify(refreshToken, secret, { algorithms: [ALGORITHM], currentDate: new Date(0) })).payload;
    } catch {
      return; // forged or malformed: nothing of ours to revoke
    }
    if (payload.typ !== 'refresh' || !isUuid(payload.fam)) return;
    await revokeFamily(db, payload.fam);
  }

  async function revokeAllOf(userId: string, tx: Queryable = db): Promise<void> {
    if (!isUuid(userId)) return; // names nobody
    await tx.kysely
      .updateTable('refresh_tokens')
      .set((eb) => ({ revoked_at: eb.fn<Date>('now') }))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  return { issuePair, verifyAccess, rotate, revokeFamilyOf, revokeAllOf };
}
