import { randomUUID } from 'node:crypto';
import { assert } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdminCompany, type Company } from '../../../src/domain/company';
import { createTestApp, json, mailsTo, type TestApp } from '../../test-support';
import { addMember, adminLogin, call, companyRow, createCompanyAs, login, type Login } from './fixtures';

let t: TestApp;
let admin: Login;
let owner: Login;
let coOwner: Login;
let ceo: Login;

beforeAll(async () => {
  t = await createTestApp();
  [admin, owner, coOwner, ceo] = await Promise.all([
    adminLogin(t),
    login(t, { lastName: 'Соколов', firstName: 'Андрей', middleName: 'Викторович' }),
    login(t, { firstName: 'Mary', lastName: 'Smith', middleName: '' }),
    login(t),
  ]);
  await t.db.query(`UPDATE users SET locale = 'en' WHERE id = $1`, [coOwner.id]);
});
afterAll(() => t.close());

/** A company of `owner` (and `coOwner`, also OWNER), with "I paid" pressed `daysAgo` days ago. */
async function reportedCompany(name: string, daysAgo = 0): Promise<string> {
  const id = await createCompanyAs(t, owner, { name });
  await addMember(t, id, coOwner, ['OWNER']);
  await addMember(t, id, ceo, ['CEO']);
  const reported = await call(t, 'POST', `/companies/${id}/payment-reported`, owner, {});
  if (reported.statusCode !== 200) throw new Error(reported.body);
  await t.db.query(`UPDATE companies SET payment_reported_at = now() - make_interval(days => $2) WHERE id = $1`, [id, daysAgo]);
  return id;
}

const decide = (id: string, body: object, who: Login | null = admin, headers: Record<string, string> = {}) =>
  call(t, 'POST', `/admin/companies/${id}/verification`, who, body, headers);

describe('GET /admin/companies', () => {
  let older: string;
  let newer: string;
  let untouched: string;
  beforeAll(async () => {
    newer = await reportedCompany('Newer', 1);
    older = await reportedCompany('Older', 3);
    untouched = await createCompanyAs(t, owner, { name: 'Untouched' });
  });

  it('lists the companies waiting for a payment check, oldest report first, with the first owner and the review deadline', async () => {
    const response = await call(t, 'GET', '/admin/companies', admin);
    expect(response.statusCode).toBe(200);
    const companies = json<{ data: unknown[] }>(response).data.map((item) => {
      assert(item, AdminCompany);
      return item;
    });
    const ids = companies.map((c) => c.id);
    expect(ids.indexOf(older)).toBeLessThan(ids.indexOf(newer));
    expect(ids).not.toContain(untouched);
    const first = companies.find((c) => c.id === older);
    expect(first).toMatchObject({
      name: 'Older',
      legalForm: 'LEGAL_ENTITY',
      verificationStatus: 'PAYMENT_REPORTED',
      amountMinor: 100_000,
      ownerName: 'Соколов Андрей Викторович',
      ownerEmail: owner.email,
      verificationDecidedAt: null,
    });
    expect(first?.invoiceNumber).toMatch(/^INV-\d+$/);
    expect(Date.parse(first?.reviewDueAt ?? '') - Date.parse(first?.paymentReportedAt ?? '')).toBe(5 * 24 * 3600 * 1000);
  });

  it('filters by any verification status, or lists all', async () => {
    const unverified = json<{ data: AdminCompany[] }>(await call(t, 'GET', '/admin/companies?status=UNVERIFIED', admin)).data;
    expect(unverified.map((c) => c.id)).toContain(untouched);
    expect(unverified.every((c) => c.verificationStatus === 'UNVERIFIED')).toBe(true);
    const all = json<{ data: AdminCompany[] }>(await call(t, 'GET', '/admin/companies?status=all', admin)).data;
    expect(all.map((c) => c.id)).toEqual(expect.arrayContaining([older, newer, untouched]));
    expect(all.find((c) => c.id === untouched)).toMatchObject({ paymentReportedAt: null, reviewDueAt: null });
  });

  it('refuses an unknown status with 400', async () => {
    const response = await call(t, 'GET', '/admin/companies?status=PAID', admin);
    expect(response.statusCode).toBe(400);
    expect(json(response).errors).toEqual({ status: 'status is not valid.' });
  });

  it('is refused (403) to everyone but the platform admin, company owners included, and needs a session', async () => {
    for (const who of [owner, ceo]) {
      const response = await call(t, 'GET', '/admin/companies', who);
      expect(response.statusCode).toBe(403);
      expect(json(response)).toEqual({ message: 'You do not have the right to do this.' });
    }
    expect((await call(t, 'GET', '/admin/companies', null)).statusCode).toBe(401);
  });

  it('accepts an admin known by the ROLE_ADMIN authority alone', async () => {
    const byAuthority = await login(t);
    await t.db.query(`UPDATE users SET authorities = '{ROLE_OWNER,ROLE_ADMIN}' WHERE id = $1`, [byAuthority.id]);
    expect((await call(t, 'GET', '/admin/companies', byAuthority)).statusCode).toBe(200);
  });
});

describe('POST /admin/companies/{companyId}/verification', () => {
  it("verifies the company and mails each owner the result in the owner's language", async () => {
    const id = await reportedCompany('ООО «Проверено»');
    const response = await decide(id, { decision: 'VERIFIED' });
    expect(response.statusCode, response.body).toBe(200);
    const body = json<{ data: unknown; message: string }>(response);
    expect(body.message).toBe('The company is verified. Its owners have been told by e-mail.');
    assert(body.data, AdminCompany);
    expect(body.data).toMatchObject({ id, verificationStatus: 'VERIFIED', verificationComment: null });
    expect(Math.abs(Date.parse(body.data.verificationDecidedAt ?? '') - Date.now())).toBeLessThan(60_000);
    expect(await t.db.one('SELECT verification_decided_by FROM companies WHERE id = $1', [id])).toEqual({ verification_decided_by: admin.id });

    // The owner sees it in the company answer too.
    expect(json<{ data: Company }>(await call(t, 'GET', `/companies/${id}`, owner)).data.verificationStatus).toBe('VERIFIED');

    await vi.waitFor(async () => {
      const ru = (await mailsTo(t.db, owner.email)).filter((m) => m.kind === 'verificationResult');
      const en = (await mailsTo(t.db, coOwner.email)).filter((m) => m.kind === 'verificationResult');
      expect(ru).toHaveLength(1);
      expect(en).toHaveLength(1);
      expect(ru[0]).toMatchObject({ subject: 'Компания ООО «Проверено» подтверждена', link: `http://app.test/companies/${id}/verification-payment-check` });
      expect(ru[0]?.text_body).toContain('Здравствуйте, Андрей Викторович!');
      expect(ru[0]?.text_body).toContain('Компания подтверждена');
      expect(en[0]).toMatchObject({ subject: 'ООО «Проверено» is verified' });
      expect(en[0]?.text_body).toContain('Hello, Mary!');
      expect(en[0]?.html_body).toContain('ООО «Проверено»');
    });
    // The CEO is not an owner: no mail.
    expect((await mailsTo(t.db, ceo.email)).filter((m) => m.kind === 'verificationResult')).toEqual([]);
  });

  it('rejects with the reason, which the owners read in the mail and the company answer', async () => {
    const id = await reportedCompany('Rejected <Co>');
    const response = await decide(id, { decision: 'REJECTED', comment: '  The payment did not arrive.  ' }, admin, { Language: 'ru' });
    expect(response.statusCode, response.body).toBe(200);
    expect(json<{ message: string }>(response).message).toBe('Оплата отклонена. Владельцам компании отправлено письмо.');
    expect(json<{ data: AdminCompany }>(response).data).toMatchObject({ verificationStatus: 'REJECTED', verificationComment: 'The payment did not arrive.' });
    expect(json<{ data: Company }>(await call(t, 'GET', `/companies/${id}`, ceo)).data).toMatchObject({
      verificationStatus: 'REJECTED',
      verificationComment: 'The payment did not arrive.',
    });
    await vi.waitFor(async () => {
      const [mail] = (await mailsTo(t.db, coOwner.email)).filter((m) => m.kind === 'verificationResult' && m.subject.includes('Rejected'));
      expect(mail?.subject).toBe('The payment of Rejected <Co> was not confirmed');
      expect(mail?.text_body).toContain("The administrator's comment: The payment did not arrive.");
      expect(mail?.html_body).toContain('Rejected &lt;Co&gt;');
      expect(mail?.html_body).not.toContain('<Co>');
    });
    // The owner may report the payment again.
    expect((await call(t, 'POST', `/companies/${id}/payment-reported`, owner, {})).statusCode).toBe(200);
  });

  it('needs a reason to reject, and refuses other decisions and fields, with nothing changed', async () => {
    const id = await reportedCompany('Needs reason');
    const before = await companyRow(t, id);
    for (const [body, field, message] of [
      [{ decision: 'REJECTED' }, 'comment', 'Say why the payment is rejected: the owner will see it.'],
      [{ decision: 'REJECTED', comment: '   ' }, 'comment', 'Say why the payment is rejected: the owner will see it.'],
      [{ decision: 'PAYMENT_REPORTED' }, 'decision', 'decision is not valid.'],
      [{}, 'decision', 'Fill in this field.'],
      [{ decision: 'VERIFIED', comment: 'x'.repeat(2001) }, 'comment', 'The value is too long.'],
      [{ decision: 'VERIFIED', verificationStatus: 'VERIFIED' }, 'verificationStatus', 'This field is not expected.'],
      [{ decision: 'VERIFIED', companyId: randomUUID() }, 'companyId', 'This field is not expected.'],
    ] as const) {
      const response = await decide(id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(json(response).errors, JSON.stringify(body)).toEqual({ [field]: message });
    }
    expect(await companyRow(t, id)).toEqual(before);
  });

  it('decides only a reported payment (409 otherwise), with nothing changed', async () => {
    const fresh = await createCompanyAs(t, owner, { name: 'Not reported' });
    const before = await companyRow(t, fresh);
    const response = await decide(fresh, { decision: 'VERIFIED' });
    expect(response.statusCode).toBe(409);
    expect(json(response)).toEqual({ message: "This cannot be done in the company's current verification state. Reload the page to see it." });
    expect(await companyRow(t, fresh)).toEqual(before);

    const decided = await reportedCompany('Decided twice');
    expect((await decide(decided, { decision: 'VERIFIED' })).statusCode).toBe(200);
    expect((await decide(decided, { decision: 'REJECTED', comment: 'Changed my mind' })).statusCode).toBe(409);
    expect((await companyRow(t, decided))?.verification_status).toBe('VERIFIED');
  });

  it('answers a missing or malformed id with 404', async () => {
    const missing = await decide(randomUUID(), { decision: 'VERIFIED' });
    expect(missing.statusCode).toBe(404);
    const malformed = await decide('nope', { decision: 'VERIFIED' });
    expect(malformed.statusCode).toBe(404);
    expect(json(malformed)).toEqual(json(missing));
  });

  it("is refused (403) to everyone but the platform admin, the company's own owner included, with nothing changed", async () => {
    const id = await reportedCompany('Self-verify attempt');
    const before = await companyRow(t, id);
    for (const who of [owner, coOwner, ceo]) {
      const response = await decide(id, { decision: 'VERIFIED' }, who);
      expect(response.statusCode).toBe(403);
    }
    expect((await decide(id, { decision: 'VERIFIED' }, null)).statusCode).toBe(401);
    expect(await companyRow(t, id)).toEqual(before);
  });

  it('replays a retried decision with the same Idempotency-Key and mails the owners once', async () => {
    const id = await reportedCompany('Replayed');
    const key = randomUUID();
    const first = await decide(id, { decision: 'VERIFIED' }, admin, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(200);
    const replay = await decide(id, { decision: 'VERIFIED' }, admin, { 'Idempotency-Key': key });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(json(replay)).toEqual(json(first));
    await vi.waitFor(async () => {
      expect((await mailsTo(t.db, owner.email)).filter((m) => m.subject.includes('Replayed'))).toHaveLength(1);
    });
    // Give a wrongly repeated mail the time to arrive before counting again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await mailsTo(t.db, owner.email)).filter((m) => m.subject.includes('Replayed'))).toHaveLength(1);
  });
});
