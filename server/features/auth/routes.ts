// The Auth calls of docs/api.md: each is "validate with the shared struct, call the service".

import type { FastifyInstance } from 'fastify';
import { EmailInput, HrRegistrationInput, LoginInput, LogoutInput, RecoveryConfirmInput, RegistrationInput, VerifyEmailInput } from '../../../src/domain/auth';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { bearerTokenOf } from '../../auth/require-user';
import { translate } from '../../i18n/messages';
import { localeOf, OK, parseBody } from '../../http';
import { confirmRecovery, login, register, requestRecovery, resendVerification, verifyEmail } from './service';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/auth/register', async (request) => {
    const input = parseBody(RegistrationInput, request.body);
    const locale = localeOf(request);
    await register(ctx, input, locale);
    return { data: null, message: translate(locale, 'mail.notice.registered') };
  });

  app.post('/auth/register/hr', async (request) => {
    const input = parseBody(HrRegistrationInput, request.body);
    const locale = localeOf(request);
    await register(ctx, { ...input, role: 'HR' }, locale);
    return { data: null, message: translate(locale, 'mail.notice.registered') };
  });

  app.post('/auth/verify-email', async (request) => {
    const { token } = parseBody(VerifyEmailInput, request.body);
    return { data: await verifyEmail(ctx, token), message: translate(localeOf(request), 'mail.notice.verified') };
  });

  app.post('/auth/resend-verification', async (request) => {
    const { email } = parseBody(EmailInput, request.body);
    await resendVerification(ctx, email);
    return { data: null, message: translate(localeOf(request), 'mail.notice.verificationSent') };
  });

  app.post('/auth/login', async (request) => {
    const { email, password } = parseBody(LoginInput, request.body);
    const pair = await login(ctx, email, password, request.ip);
    return { ...pair, message: 'OK' };
  });

  app.post('/auth/refresh-token', async (request) => {
    const token = bearerTokenOf(request);
    if (!token) throw new AppError('refreshTokenInvalid', 401);
    const pair = await ctx.tokens.rotate(token);
    return { ...pair, message: 'OK' };
  });

  app.post('/auth/logout', async (request) => {
    const { refresh_token } = parseBody(LogoutInput, request.body);
    await ctx.tokens.revokeFamilyOf(refresh_token);
    return OK;
  });

  app.post('/auth/recovery-password', async (request) => {
    const { email } = parseBody(EmailInput, request.body);
    await requestRecovery(ctx, email);
    return { data: null, message: translate(localeOf(request), 'mail.notice.recoverySent') };
  });

  app.post('/auth/recovery-password/confirm', async (request) => {
    const { token, password } = parseBody(RecoveryConfirmInput, request.body);
    await confirmRecovery(ctx, token, password);
    return { data: null, message: translate(localeOf(request), 'mail.notice.passwordChanged') };
  });
}
