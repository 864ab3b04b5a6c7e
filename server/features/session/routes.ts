// Session data the app shell loads after sign-in (spec section 7): the current user, the enums and
// units of the app config, the user's language and profile, the password change, and the unauthenticated
// health probe, declared (server/route.ts). What it guarantees: a user changes only their own names, phone,
// language and how notifications are mailed (the body struct refuses every other field); a password change
// checks the current password before its transaction and counts a wrong one with the sign-in failures of the
// account and the client address (auth/throttle.ts), so a stolen access token guesses no faster than sign-in;
// a changed password ends every other session.

import type { Updateable } from 'kysely';
import { COMPANY_ROLES, IMPLEMENTATION_GOALS, POSITIONS, REGISTRATION_ROLES, PasswordChangeInput, ProfilePatch, type Locale as LocaleValue } from '../../../src/domain/auth';
import { BASE_INDICATOR_UNITS, type EnumOption, type EnumsData, type Unit } from '../../../src/domain/user';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import { toCurrentUser, toUserRow } from '../../auth/users';
import { assertNotThrottled, clearAccountFailures, recordFailure } from '../../auth/throttle';
import { runIdempotent } from '../../idempotency';
import { sendPendingDigest } from '../notifications/digest';
import { membershipsOf } from '../../auth/access';
import { access, defineRoute, ok, type DeclaredRoute } from '../../route';

export const CURRENCIES = ['RUB', 'USD', 'AUD'] as const;
export const PLATFORM_ROLES = ['ADMIN'] as const;

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

/** The columns a profile patch changes: only the fields it names (`middleName: null` or '' clears it). */
function profileChanges(patch: ProfilePatch): Updateable<DB['users']> {
  const changes: Updateable<DB['users']> = {};
  if (patch.locale !== undefined) changes.locale = patch.locale;
  if (patch.firstName !== undefined) changes.first_name = patch.firstName;
  if (patch.lastName !== undefined) changes.last_name = patch.lastName;
  if (patch.middleName !== undefined) changes.middle_name = patch.middleName || null;
  if (patch.phone !== undefined) changes.phone = patch.phone;
  if (patch.notificationMail !== undefined) changes.notification_mail = patch.notificationMail;
  return changes;
}

export const sessionRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/user',
    access: access.user,
    handler: async ({ db, user }) => ok({ ...toCurrentUser(user), companies: await membershipsOf(db, user.id) }),
  }),

  defineRoute({
    method: 'PATCH',
    path: '/user',
    access: access.user,
    body: ProfilePatch,
    handler: async ({ ctx, db, user, body }) => {
      // Back from the digest to a mail per event: what waits goes out now in one last digest, in this
      // transaction, instead of one mail each (notifications/digest.ts).
      if (body.notificationMail === 'instant' && user.notification_mail === 'digest') {
        await sendPendingDigest(db, ctx.config.appUrl, user.id, ctx.clock.now());
      }
      const updated = await db.kysely
        .updateTable('users')
        .set((eb) => ({ ...profileChanges(body), updated_at: eb.fn<Date>('now') }))
        .where('id', '=', user.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new AppError('unauthorized', 401);
      return ok({ ...toCurrentUser(toUserRow(updated)), companies: await membershipsOf(db, user.id) });
    },
  }),

  // Wrong current passwords count with the sign-in failures of the account and the client address
  // (auth/throttle.ts), so a stolen access token cannot be used to guess the password faster than sign-in.
  // The current password is checked before the transaction (scrypt is slow), so this route is declared as no
  // write and opens its idempotent transaction itself; a replay of a finished change answers the stored result,
  // whatever the check said, because runIdempotent answers it before `work` runs. A wrong password is recorded
  // after the transaction has rolled back (its refusal leaves nothing else behind).
  defineRoute({
    method: 'POST',
    path: '/user/password',
    access: access.user,
    body: PasswordChangeInput,
    write: false,
    handler: async ({ ctx, request, reply, user, body, locale }) => {
      const keys = { account: user.email.toLowerCase(), address: request.ip };
      await assertNotThrottled(ctx.db, keys, ctx.clock.now());
      const isCurrent = await ctx.passwords.verify(body.currentPassword, user.password_hash);
      const newHash = isCurrent ? await ctx.passwords.hash(body.newPassword) : null;
      let outcome = null as 'wrong' | null;
      try {
        return await runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
          // The hash must still be the one checked (no other change got in between).
          const changed = newHash
            ? await tx.kysely
                .updateTable('users')
                .set((eb) => ({ password_hash: newHash, updated_at: eb.fn<Date>('now') }))
                .where('id', '=', user.id)
                .where('password_hash', '=', user.password_hash)
                .returning('id')
                .executeTakeFirst()
            : undefined;
          if (!changed) {
            outcome = 'wrong';
            throw new AppError('validation', 400, { fieldErrors: { currentPassword: 'passwordWrong' } });
          }
          // Every session ends; this one goes on with the new pair answered here.
          await ctx.tokens.revokeAllOf(user.id, tx);
          // In the change's transaction: runIdempotent sends the answer before a `finally` here would run.
          await clearAccountFailures(tx, keys.account);
          const pair = await ctx.tokens.issuePair(user.id, tx);
          return { status: 200, body: { ...pair, data: null, message: translate(locale, 'mail.notice.passwordUpdated') } };
        });
      } finally {
        if (outcome === 'wrong') await recordFailure(ctx.db, keys, ctx.clock.now());
      }
    },
  }),

  defineRoute({
    method: 'GET',
    path: '/enums',
    access: access.user,
    handler: ({ ctx, locale }) => Promise.resolve(ok(buildEnums(locale, ctx.config.supportLink))),
  }),

  defineRoute({
    method: 'GET',
    path: '/units',
    access: access.user,
    handler: ({ locale }) => Promise.resolve(ok(buildUnits(locale))),
  }),

  defineRoute({
    method: 'GET',
    path: '/health',
    access: access.public,
    handler: async ({ ctx, reply }) => {
      void reply.header('Cache-Control', 'no-store');
      try {
        await ctx.db.kysely.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
      } catch (error) {
        throw new AppError('databaseUnavailable', 503, { values: { reason: error instanceof Error ? error.message : String(error) } });
      }
      return ok({ status: 'ok' });
    },
  }),
];
