// Session data the app shell loads after sign-in (spec section 7): the current user, the enums and
// units of the app config, the user's language, and the unauthenticated health probe.

import type { FastifyInstance } from 'fastify';
import { COMPANY_ROLES, IMPLEMENTATION_GOALS, POSITIONS, REGISTRATION_ROLES, UserSettingsInput, type Locale as LocaleValue } from '../../../src/domain/auth';
import type { EnumOption, EnumsData, Unit } from '../../../src/domain/user';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import { localeOf, OK, parseBody } from '../../http';
import { toCurrentUser } from '../../auth/users';
import { runIdempotent } from '../../idempotency';
import { membershipsOf } from '../companies/access';

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
    const { locale } = parseBody(UserSettingsInput, request.body);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      await tx.query('UPDATE users SET locale = $2, updated_at = now() WHERE id = $1', [user.id, locale]);
      return { status: 200, body: OK };
    });
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
