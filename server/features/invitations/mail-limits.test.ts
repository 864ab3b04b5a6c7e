// Invitations mail through the outbox, under the same per-recipient limit as every other mail (mail/limits.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invitation } from '../../../src/domain/company';
import { createManualClock } from '../../clock';
import { MAIL_RECIPIENT_RULES } from '../../mail/limits';
import { api, createTestApp, json, mailsTo, uniqueEmail, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';

let t: TestApp;
let owner: Login;
let acme: Fixture;
const clock = createManualClock();

beforeAll(async () => {
  t = await createTestApp({}, undefined, { clock });
  owner = await signUpMember(t);
  acme = await createCompany(t.db, 'Acme', { [owner.id]: ['OWNER'] });
});
afterAll(() => t.close());

const call = (path: string, payload?: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: api(`/companies/${acme.companyId}/invitations${path}`),
    headers: { authorization: `Bearer ${owner.access}`, Language: 'en' },
    ...(payload ? { payload } : {}),
  });

describe('invitation mail', () => {
  it('is queued with the invitation and sent by the job runner', async () => {
    const email = uniqueEmail('invitee');
    const res = await call('', { email, roles: ['EMPLOYEE'], lastName: 'Новикова', firstName: 'Мария' });
    expect(res.statusCode, res.body).toBe(201);
    // Committed with the invitation, not yet sent.
    const queued = await t.db.query<{ sent_at: Date | null }>('SELECT sent_at FROM mail_outbox WHERE to_address = $1', [email]);
    expect(queued).toEqual([{ sent_at: null }]);
    const [mail] = await mailsTo(t.db, email);
    expect(mail?.sent_at).toBeInstanceOf(Date);
    expect(t.printed).toContain(`[mail] to ${email}: ${mail?.subject} — ${mail?.link}`);
  });

  it('is limited per invited address: a resend over the limit is refused and changes nothing', async () => {
    const limit = MAIL_RECIPIENT_RULES[0]?.limit ?? 0;
    const email = uniqueEmail('invitee');
    const created = await call('', { email, roles: ['EMPLOYEE'], lastName: 'Новикова', firstName: 'Мария' });
    const { id } = json<{ data: Invitation }>(created).data;
    for (let sent = 1; sent < limit; sent++) expect((await call(`/${id}/resend`)).statusCode).toBe(200);

    const refused = await call(`/${id}/resend`);
    expect(refused.statusCode).toBe(429);
    expect(json(refused).message).toBe('Too many messages to this address. Try again in 15 minutes.');
    expect(await t.db.one('SELECT sent_count FROM invitations WHERE id = $1', [id])).toEqual({ sent_count: limit });
    expect(await mailsTo(t.db, email)).toHaveLength(limit);

    clock.advance(15 * 60 * 1000);
    const later = await call(`/${id}/resend`);
    expect(later.statusCode).toBe(200);
    expect(json<{ data: Invitation }>(later).data.sentCount).toBe(limit + 1);
    expect(await mailsTo(t.db, email)).toHaveLength(limit + 1);
  });
});
