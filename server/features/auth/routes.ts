// The Auth calls of docs/api.md, declared (server/route.ts): all public, each "validate with the shared struct,
// call the service". What the declarations keep: every body is validated before the handler runs, and the
// registration limits are counted before the password is hashed, so a refused call costs no scrypt; the
// guarantees of sign-in, sign-up and recovery themselves are in ./service.ts and auth/throttle.ts.

import { EmailInput, HrRegistrationInput, LoginInput, LogoutInput, RecoveryConfirmInput, RegistrationInput, VerifyEmailInput } from '../../../src/domain/auth';
import { AppError } from '../../errors';
import { bearerTokenOf } from '../../auth/require-user';
import { takeRegistration } from '../../auth/throttle';
import { translate } from '../../i18n/messages';
import { access, defineRoute, ok, type DeclaredRoute } from '../../route';
import { confirmRecovery, login, register, requestRecovery, resendVerification, verifyEmail } from './service';

// Public writes run outside the idempotent transaction (there is no user to key it to): each service opens the
// transactions it needs.
export const authRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/auth/register',
    access: access.public,
    body: RegistrationInput,
    handler: async ({ ctx, request, body, locale }) => {
      // Counted before the password is hashed: a refused registration costs no scrypt.
      await takeRegistration(ctx.db, request.ip, ctx.clock.now());
      await register(ctx, body, locale, request.ip);
      return ok(null, translate(locale, 'mail.notice.registered'));
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/auth/register/hr',
    access: access.public,
    body: HrRegistrationInput,
    handler: async ({ ctx, request, body, locale }) => {
      await takeRegistration(ctx.db, request.ip, ctx.clock.now());
      await register(ctx, { ...body, role: 'HR' }, locale, request.ip);
      return ok(null, translate(locale, 'mail.notice.registered'));
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/auth/verify-email',
    access: access.public,
    body: VerifyEmailInput,
    handler: async ({ ctx, body, locale }) => ok(await verifyEmail(ctx, body.token), translate(locale, 'mail.notice.verified')),
  }),

  defineRoute({
    method: 'POST',
    path: '/auth/resend-verification',
    access: access.public,
    body: EmailInput,
    handler: async ({ ctx, request, body, locale }) => {
      await resendVerification(ctx, body.email, request.ip);
      return ok(null, translate(locale, 'mail.notice.verificationSent'));
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/auth/login',
    access: access.public,
    body: LoginInput,
    handler: async ({ ctx, request, body }) => {
      const pair = await login(ctx, body.email, body.password, request.ip);
      return { body: { ...pair, message: 'OK' } };
    },
  }),

  // The refresh token travels as the bearer token and the body is empty (the client sends none, or `{}`).
  defineRoute({
    method: 'POST',
    path: '/auth/refresh-token',
    access: access.public,
    handler: async ({ ctx, request }) => {
      const token = bearerTokenOf(request);
      if (!token) throw new AppError('refreshTokenInvalid', 401);
      const pair = await ctx.tokens.rotate(token);
      return { body: { ...pair, message: 'OK' } };
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/auth/logout',
    access: access.public,
    body: LogoutInput,
    handler: async ({ ctx, body }) => {
      await ctx.tokens.revokeFamilyOf(body.refresh_token);
      return ok(null);
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/auth/recovery-password',
    access: access.public,
    body: EmailInput,
    handler: async ({ ctx, request, body, locale }) => {
      await requestRecovery(ctx, body.email, request.ip);
      return ok(null, translate(locale, 'mail.notice.recoverySent'));
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/auth/recovery-password/confirm',
    access: access.public,
    body: RecoveryConfirmInput,
    handler: async ({ ctx, body, locale }) => {
      await confirmRecovery(ctx, body.token, body.password);
      return ok(null, translate(locale, 'mail.notice.passwordChanged'));
    },
  }),
];
