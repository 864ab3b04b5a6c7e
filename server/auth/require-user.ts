// The one access check for authenticated routes: a valid access token of an active user, or an
// error. Deny by default: anything but `Authorization: Bearer <access token>` is refused with 401;
// an expired access token gets 403 `Token Expired.` so the client refreshes (spec section 8).

import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database';
import { AppError } from '../errors';
import type { TokenService } from './tokens';
import { findUserById, type UserRow } from './users';

export type RequireUser = (request: FastifyRequest) => Promise<UserRow>;

export function bearerTokenOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

export function createRequireUser(db: Database, tokens: TokenService): RequireUser {
  return async (request) => {
    const token = bearerTokenOf(request);
    if (!token) throw new AppError('unauthorized', 401);
    const userId = await tokens.verifyAccess(token);
    const user = await findUserById(db, userId);
    if (!user?.active) throw new AppError('unauthorized', 401);
    return user;
  };
}
