// The invitation calls of docs/api.md ("Invitations"). Company calls: struct + one access check + service
// call in runIdempotent's transaction. The mail of a new or resent invitation is sent after the commit and
// before the answer (an onSend hook), so a rolled-back invitation never mails a link and a replayed request
// never mails twice. The two link calls need no sign-in: the token is the credential.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AcceptInvitationInput, INVITATION_STATUSES, InvitationInput, type InvitationStatus } from '../../../src/domain/company';
import { bearerTokenOf } from '../../auth/require-user';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { localeOf, parseBody } from '../../http';
import { translate } from '../../i18n/messages';
import { runIdempotent } from '../../idempotency';
import type { OutgoingMail } from '../../mail/mailer';
import { requireAccess } from '../../auth/access';
import { acceptInvitation, createInvitation, listInvitations, peekLink, previewInvitation, resendInvitation, revokeInvitation } from './service';

type Query = Record<string, string | undefined>;

export function registerInvitationRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Mails waiting for their request's transaction to commit; sent only with a successful answer.
  const outgoing = new WeakMap<FastifyRequest, OutgoingMail>();
  const sendAfterCommit = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const mail = outgoing.get(request);
    outgoing.delete(request);
    if (mail && reply.statusCode < 300) {
      try {
        await ctx.mailer.send(mail);
      } catch (error) {
        // The invitation stands; it can be resent from the list.
        request.log.error({ err: error }, 'invitation mail failed');
      }
    }
    return payload;
  };

  app.post<{ Params: { companyId: string } }>('/companies/:companyId/invitations', { onSend: sendAfterCommit }, async (request, reply) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
    const input = parseBody(InvitationInput, request.body);
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      const fresh = await requireAccess(tx, user, member.companyId, 'people.manage');
      const { invitation, mail } = await createInvitation(tx, fresh, user, input, { appUrl: ctx.config.appUrl, locale });
      outgoing.set(request, mail);
      return { status: 201, body: { data: invitation, message: translate(locale, 'mail.notice.invitationSent') } };
    });
  });

  app.get<{ Params: { companyId: string }; Querystring: Query }>('/companies/:companyId/invitations', async (request) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
    const status = request.query.status || 'PENDING';
    if (!(INVITATION_STATUSES as readonly string[]).includes(status)) throw new AppError('validation', 400, { fieldErrors: { status: 'invalid' } });
    return { data: await listInvitations(ctx.db, member.companyId, status as InvitationStatus), message: 'OK' };
  });

  app.post<{ Params: { companyId: string; invitationId: string } }>(
    '/companies/:companyId/invitations/:invitationId/resend',
    { onSend: sendAfterCommit },
    async (request, reply) => {
      const user = await ctx.requireUser(request);
      const member = await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
      const locale = localeOf(request);
      return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
        const fresh = await requireAccess(tx, user, member.companyId, 'people.manage');
        const { invitation, mail } = await resendInvitation(tx, fresh, user, request.params.invitationId, { appUrl: ctx.config.appUrl, locale });
        outgoing.set(request, mail);
        return { status: 200, body: { data: invitation, message: translate(locale, 'mail.notice.invitationResent') } };
      });
    },
  );

  app.delete<{ Params: { companyId: string; invitationId: string } }>('/companies/:companyId/invitations/:invitationId', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      const fresh = await requireAccess(tx, user, member.companyId, 'people.manage');
      await revokeInvitation(tx, fresh, request.params.invitationId);
      return { status: 200, body: { data: null, message: translate(locale, 'mail.notice.invitationRevoked') } };
    });
  });

  app.get<{ Params: { token: string } }>('/invitations/:token', async (request) => {
    return { data: await previewInvitation(ctx.db, request.params.token), message: 'OK' };
  });

  app.post<{ Params: { token: string } }>('/invitations/:token/accept', async (request, reply) => {
    const { token } = request.params;
    const input = parseBody(AcceptInvitationInput, request.body ?? {});
    const locale = localeOf(request);
    const link = await peekLink(ctx.db, token);
    const newAccount = link !== null && !link.hasAccount;
    if (!newAccount) {
      // The invited address has an account: only that account, signed in, may accept. Under its
      // Idempotency-Key a retried accept replays the first answer, even though the link is used by then.
      if (!link && bearerTokenOf(request) === null) throw new AppError('invitationInvalid', 404);
      const user = await ctx.requireUser(request);
      return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
        const joined = await acceptInvitation(tx, token, { kind: 'existing', userId: user.id });
        return { status: 200, body: { data: { companyId: joined.companyId }, message: translate(locale, 'mail.notice.invitationAccepted', { company: joined.companyName }) } };
      });
    }
    // No account yet: the link itself proves the address, the password makes the account. Not replayable
    // (there is no user to keep the answer for): a retry finds the link used and signs in instead.
    if (!input.password) throw new AppError('validation', 400, { fieldErrors: { password: 'required' } });
    // Hashing is slow: done before the transaction, which only writes.
    const passwordHash = await ctx.passwords.hash(input.password);
    const { joined, pair } = await ctx.db.transaction(async (tx) => {
      const result = await acceptInvitation(tx, token, { kind: 'new', passwordHash, locale });
      return { joined: result, pair: await ctx.tokens.issuePair(result.userId, tx) };
    });
    return reply.code(200).send({
      ...pair,
      data: { companyId: joined.companyId },
      message: translate(locale, 'mail.notice.invitationAccepted', { company: joined.companyName }),
    });
  });
}
