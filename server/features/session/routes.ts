// Session data the app shell loads after sign-in (spec section 7): the current user, the enums and
// units of the app config, the user's language, and the unauthenticated health probe.

import type { FastifyInstance } from 'fastify';
import { COMPANY_ROLES, IMPLEMENTATION_GOALS, POSITIONS, REGISTRATION_ROLES, PasswordChangeInput, ProfilePatch, type Locale as LocaleValue } from '../../../src/domain/auth';
import type { EnumOption, EnumsData, Unit } from '../../../src/domain/user';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import { localeOf, parseBody } from '../../http';
import { toCurrentUser, type UserRow } from '../../auth/users';
import { assertNotThrottled, clearAccountFailures, recordFailure } from '../../auth/throttle';
import { runIdempotent } from '../../idempotency';
import { membershipsOf } from '../../auth/access';

export const CURRENCIES = ['RUB', 'USD', 'AUD'] as const;
export const PLATFORM_ROLES = ['ADMIN'] as const;
export const BASE_INDICATOR_UNITS = ['MINUTES', 'HOURS', 'DAYS'] as const;

function options(locale: LocaleValue, prefix: string, ids: readonly string[]): EnumOption[] {
  return ids.map((id) => ({ id, title: translate(locale, `enum.${prefix}.${id}`) }));
}

export function buildEnums(locale: LocaleValue, supportLink: string): EnumsData {
  return {
    enums: {
      ROLE: options(locale, 'role', [...COMPANY_ROLES, ...PLATFORM_ROLES]),
      REGISTRATION_ROLE: options(locale, 'registrationRole', REGISTRATION_ROLES),
      POSITION: options(locale, 'position', POSITIONS),
      IMPLEMENTATION_GOAL: options(locale, 'implementationGoal', IMPLEMENTATION_GOALS),
      CURRENCY: options(locale, 'currency', CURRENCIES),
    },
    supportLink,
  };
}

export function buildUnits(locale: LocaleValue): Unit[] {
  return BASE_INDICATOR_UNITS.map((id) => ({ id, title: translate(locale, `unit.${id}`), type: 'BASE_INDICATOR' }));
}

export function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/user', async (request) => {
    const user = await ctx.requireUser(request);
    return { data: { ...toCurrentUser(user), companies: await membershipsOf(ctx.db, user.id) }, message: 'OK' };
  });

  app.patch('/user', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const patch = parseBody(ProfilePatch, request.body);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      const updated = await tx.one<UserRow>(
        `UPDATE users SET locale = COALESCE($2, locale), first_name = COALESCE($3, first_name), last_name = COALESCE($4, last_name),
                          middle_name = CASE WHEN $5::boolean THEN $6 ELSE middle_name END, phone = COALESCE($7, phone), updated_at = now()
          WHERE id = $1 RETURNING *`,
        [
          user.id,
          patch.locale ?? null,
          patch.firstName ?? null,
          patch.lastName ?? null,
          patch.middleName !== undefined,
          patch.middleName || null,
          patch.phone ?? null,
        ],
      );
      if (!updated) throw new AppError('unauthorized', 401);
      return { status: 200, body: { data: { ...toCurrentUser(updated), companies: await membershipsOf(tx, user.id) }, message: 'OK' } };
    });
  });

  // Wrong current passwords count with the sign-in failures of the account and the client address
  // (auth/throttle.ts), so a stolen access token cannot be used to guess the password faster than sign-in.
  // The current password is checked before the transaction (scrypt is slow); a replay of a finished change
  // answers the stored result, whatever the check said, because runIdempotent answers it before `work` runs.
  app.post('/user/password', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const input = parseBody(PasswordChangeInput, request.body);
    const keys = { account: user.email.toLowerCase(), address: request.ip };
    await assertNotThrottled(ctx.db, keys);
    const isCurrent = await ctx.passwords.verify(input.currentPassword, user.password_hash);
    const newHash = isCurrent ? await ctx.passwords.hash(input.newPassword) : null;
    let outcome = null as 'wrong' | 'changed' | null;
    const locale = localeOf(request);
    try {
      return await runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
        // The hash must still be the one checked (no other change got in between).
        const changed = newHash
          ? await tx.one('UPDATE users SET password_hash = $3, updated_at = now() WHERE id = $1 AND password_hash = $2 RETURNING id', [user.id, user.password_hash, newHash])
          : null;
        if (!changed) {
          outcome = 'wrong';
          throw new AppError('validation', 400, { fieldErrors: { currentPassword: 'passwordWrong' } });
        }
        // Every session ends; this one goes on with the new pair answered here.
        await ctx.tokens.revokeAllOf(user.id, tx);
        const pair = await ctx.tokens.issuePair(user.id, tx);
        outcome = 'changed';
        return { status: 200, body: { ...pair, data: null, message: translate(locale, 'mail.notice.passwordUpdated') } };
      });
    } finally {
      if (outcome === 'wrong') await recordFailure(ctx.db, keys);
      else if (outcome === 'changed') await clearAccountFailures(ctx.db, keys.account);
    }
  });

  app.get('/enums', async (request) => {
    await ctx.requireUser(request);
    return { data: buildEnums(localeOf(request), ctx.config.supportLink), message: 'OK' };
  });

  app.get('/units', async (request) => {
    await ctx.requireUser(request);
    return { data: buildUnits(localeOf(request)), message: 'OK' };
  });

  app.get('/health', async (_request, reply) => {
    void reply.header('Cache-Control', 'no-store');
    try {
      await ctx.db.query('SELECT 1');
    } catch (error) {
      throw new AppError('databaseUnavailable', 503, { values: { reason: error instanceof Error ? error.message : String(error) } });
    }
    return { data: { status: 'ok' }, message: 'OK' };
  });
}
