// The invitation calls of docs/api.md ("Invitations"), declared (server/route.ts). The company calls belong
// to those who manage people; their writes run in the idempotent transaction, where the mail of a new or
// resent invitation is queued (mail/outbox.ts), so a rolled-back invitation never mails a link and a replayed
// request never mails twice; the declared route wakes the job runner after the commit.
//
// The two link calls are public: the token is the credential. Accepting is "the signed-in account when the
// invited address has one": the handler decides from the link, and then requires that account itself and
// keys the accept to it (runIdempotent), while a new person's accept makes the account and signs it in.

import { object, string, type } from 'superstruct';
import { AcceptInvitationInput, INVITATION_STATUSES, InvitationInput } from '../../../src/domain/company';
import { bearerTokenOf } from '../../auth/require-user';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import { runIdempotent } from '../../idempotency';
import { access, defineRoute, idParams, ok, queryEnum, type DeclaredRoute } from '../../route';
import { acceptInvitation, createInvitation, listInvitations, peekLink, previewInvitation, resendInvitation, revokeInvitation } from './service';

const companyParams = idParams('companyId');
const invitationParams = idParams('companyId', 'invitationId');
/** Any string: an unknown or malformed token is answered by the service (404 `invitationInvalid`). */
const linkParams = object({ token: string() });

const InvitationListQuery = type({ status: queryEnum(INVITATION_STATUSES) });

export const invitationRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/companies/:companyId/invitations',
    access: access.company('people.manage'),
    params: companyParams,
    body: InvitationInput,
    handler: async ({ ctx, db, member, user, body, locale }) => {
      const invitation = await createInvitation(db, member, user, body, { appUrl: ctx.config.appUrl, locale, now: ctx.clock.now() });
      return ok(invitation, translate(locale, 'mail.notice.invitationSent'), 201);
    },
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/invitations',
    access: access.company('people.manage'),
    params: companyParams,
    query: InvitationListQuery,
    handler: async ({ db, member, query }) => ok(await listInvitations(db, member.companyId, query.status ?? 'PENDING')),
  }),

  defineRoute({
    method: 'POST',
    path: '/companies/:companyId/invitations/:invitationId/resend',
    access: access.company('people.manage'),
    params: invitationParams,
    handler: async ({ ctx, db, member, user, params, locale }) => {
      const invitation = await resendInvitation(db, member, user, params.invitationId, { appUrl: ctx.config.appUrl, locale, now: ctx.clock.now() });
      return ok(invitation, translate(locale, 'mail.notice.invitationResent'));
    },
  }),

  defineRoute({
    method: 'DELETE',
    path: '/companies/:companyId/invitations/:invitationId',
    access: access.company('people.manage'),
    params: invitationParams,
    handler: async ({ db, member, params, locale }) => {
      await revokeInvitation(db, member, params.invitationId);
      return ok(null, translate(locale, 'mail.notice.invitationRevoked'));
    },
  }),

  defineRoute({
    method: 'GET',
    path: '/invitations/:token',
    access: access.public,
    params: linkParams,
    handler: async ({ db, params }) => ok(await previewInvitation(db, params.token)),
  }),

  defineRoute({
    method: 'POST',
    path: '/invitations/:token/accept',
    access: access.public,
    params: linkParams,
    body: AcceptInvitationInput,
    bodyMayBeEmpty: true,
    handler: async ({ ctx, request, reply, params: { token }, body, locale }) => {
      const link = await peekLink(ctx.db, token);
      const newAccount = link !== null && !link.hasAccount;
      if (!newAccount) {
        // The invited address has an account: only that account, signed in, may accept. Under its
        // Idempotency-Key a retried accept replays the first answer, even though the link is used by then.
        if (!link && bearerTokenOf(request) === null) throw new AppError('invitationInvalid', 404);
        const user = await ctx.requireUser(request);
        return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
          const joined = await acceptInvitation(tx, token, { kind: 'existing', userId: user.id });
          const message = translate(locale, 'mail.notice.invitationAccepted', { company: joined.companyName });
          return { status: 200, body: { data: { companyId: joined.companyId }, message } };
        });
      }
      // No account yet: the link itself proves the address, the password makes the account. Not replayable
      // (there is no user to keep the answer for): a retry finds the link used and signs in instead.
      if (!body.password) throw new AppError('validation', 400, { fieldErrors: { password: 'required' } });
      // Hashing is slow: done before the transaction, which only writes.
      const passwordHash = await ctx.passwords.hash(body.password);
      const { joined, pair } = await ctx.db.transaction(async (tx) => {
        const result = await acceptInvitation(tx, token, { kind: 'new', passwordHash, locale });
        return { joined: result, pair: await ctx.tokens.issuePair(result.userId, tx) };
      });
      return {
        status: 200,
        body: { ...pair, data: { companyId: joined.companyId }, message: translate(locale, 'mail.notice.invitationAccepted', { company: joined.companyName }) },
      };
    },
  }),
];
