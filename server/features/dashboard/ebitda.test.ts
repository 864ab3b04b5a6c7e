// EBITDA per month (docs/api.md, "Dashboard"): the financial director enters and clears it, the company-wide roles
// read it, the dashboard divides the period's effect by it.
import { randomUUID } from 'node:crypto';
import { is } from 'superstruct';
import { beforeAll, describe, expect, it } from 'vitest';
import { EbitdaRow, type Dashboard } from '../../../src/domain/dashboard';
import { createManualClock } from '../../clock';
import { api, json, testAppPerFile } from '../../test-support';
import { createCompany, signUpMember, type Login } from './fixtures';

const NOW = new Date('2026-07-10T09:00:00.000Z');
const clock = createManualClock(NOW);
const t = testAppPerFile({ clock });

let owner: Login;
let ceo: Login;
let findir: Login;
let finspec: Login;
let head: Login;
let employee: Login;
let outsider: Login;
let companyId: string;
let rivalId: string;

beforeAll(async () => {
  const member = (lastName: string) => signUpMember(t, { lastName });
  [owner, ceo, findir, finspec, head, employee, outsider] = await Promise.all([
    member('Хозяинов'),
    member('Директоров'),
    member('Финансов'),
    member('Счётов'),
    member('Головин'),
    member('Рядовой'),
    member('Чужой'),
  ]);
  const acme = await createCompany(
    t.db,
    'Acme',
    { [owner.id]: ['OWNER'], [ceo.id]: ['CEO'], [findir.id]: ['FINANCIAL_DIRECTOR'], [finspec.id]: ['FINANCIAL_SPECIALIST'], [head.id]: ['MIDDLE_MANAGER'], [employee.id]: ['EMPLOYEE'] },
    { A: head.id },
  );
  companyId = acme.companyId;
  await t.db.query('UPDATE employees SET department_id = $2 WHERE company_id = $1 AND user_id = $3', [companyId, acme.departments.B!, employee.id]);
  const rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER', 'FINANCIAL_DIRECTOR'] });
  rivalId = rival.companyId;
});

interface Answer<T> {
  data: T;
  message: string;
  errors?: Record<string, string>;
}

const headers = (who: Login, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${who.access}`, Language: 'en', ...extra });

function put(who: Login, body: unknown, extra: Record<string, string> = {}, company = companyId) {
  return t.app.inject({ method: 'PUT', url: api(`/companies/${company}/ebitda`), headers: headers(who, extra), payload: body as Record<string, unknown> });
}

function list(who: Login, from = '2027-01', to = '2027-12', company = companyId) {
  return t.app.inject({ method: 'GET', url: api(`/companies/${company}/ebitda?from=${from}&to=${to}`), headers: headers(who) });
}

async function rows(who: Login, from = '2027-01', to = '2027-12'): Promise<EbitdaRow[]> {
  const response = await list(who, from, to);
  expect(response.statusCode, response.body).toBe(200);
  return json<Answer<EbitdaRow[]>>(response).data;
}

describe('entering EBITDA', () => {
  it('saves a month, changes it, and clears it with a null amount', async () => {
    const saved = await put(findir, { month: '2027-02', currency: 'RUB', amountMinor: 1_500_000_000 });
    expect(saved.statusCode, saved.body).toBe(200);
    const answer = json<Answer<EbitdaRow>>(saved);
    expect(answer.message).toBe('The EBITDA of the month has been saved.');
    expect(is(answer.data, EbitdaRow)).toBe(true);
    expect(answer.data).toEqual({ month: '2027-02', currency: 'RUB', amountMinor: 1_500_000_000, updatedAt: NOW.toISOString() });

    clock.set(new Date('2026-07-11T10:00:00.000Z'));
    try {
      const changed = json<Answer<EbitdaRow>>(await put(findir, { month: '2027-02', currency: 'RUB', amountMinor: -2_000 }));
      expect(changed.data).toEqual({ month: '2027-02', currency: 'RUB', amountMinor: -2_000, updatedAt: '2026-07-11T10:00:00.000Z' });
    } finally {
      clock.set(NOW);
    }
    expect(await rows(owner)).toEqual([{ month: '2027-02', currency: 'RUB', amountMinor: -2_000, updatedAt: '2026-07-11T10:00:00.000Z' }]);
    const entered = await t.db.one<{ entered_by: string }>('SELECT entered_by FROM company_ebitda WHERE company_id = $1', [companyId]);
    expect(entered?.entered_by).toBe(findir.id);

    const cleared = await put(findir, { month: '2027-02', currency: 'RUB', amountMinor: null }, { Language: 'ru' });
    expect(cleared.statusCode).toBe(200);
    expect(json<Answer<null>>(cleared)).toEqual({ data: null, message: 'EBITDA за месяц удалена.' });
    expect(await rows(owner)).toEqual([]);
    // Clearing a month that has none is no error.
    expect((await put(findir, { month: '2027-02', currency: 'RUB', amountMinor: null })).statusCode).toBe(200);
  });

  it('lists the months asked for, by month and currency', async () => {
    for (const [month, currency, amountMinor] of [
      ['2028-03', 'AUD', 3],
      ['2028-01', 'USD', 2],
      ['2028-01', 'RUB', 1],
      ['2028-05', 'RUB', 5],
      ['2027-12', 'RUB', 9],
    ] as const) {
      expect((await put(findir, { month, currency, amountMinor })).statusCode).toBe(200);
    }
    const listed = await rows(ceo, '2028-01', '2028-04');
    expect(listed.map((row) => [row.month, row.currency, row.amountMinor])).toEqual([
      ['2028-01', 'RUB', 1],
      ['2028-01', 'USD', 2],
      ['2028-03', 'AUD', 3],
    ]);
    expect(listed.every((row) => is(row, EbitdaRow))).toBe(true);
  });

  it('replays a PUT with the same Idempotency-Key, and refuses the key with another body', async () => {
    const key = randomUUID();
    const first = await put(findir, { month: '2029-01', currency: 'USD', amountMinor: 10 }, { 'Idempotency-Key': key });
    clock.set(new Date('2026-07-12T00:00:00.000Z'));
    try {
      const again = await put(findir, { month: '2029-01', currency: 'USD', amountMinor: 10 }, { 'Idempotency-Key': key });
      expect(again.statusCode).toBe(200);
      expect(json(again)).toEqual(json(first));
      expect((await put(findir, { month: '2029-01', currency: 'USD', amountMinor: 11 }, { 'Idempotency-Key': key })).statusCode).toBe(422);
    } finally {
      clock.set(NOW);
    }
    expect(await rows(owner, '2029-01', '2029-01')).toEqual([{ month: '2029-01', currency: 'USD', amountMinor: 10, updatedAt: NOW.toISOString() }]);
  });

  it('changes the EBITDA figures of the dashboard', async () => {
    const read = async () => {
      const response = await t.app.inject({ method: 'GET', url: api(`/companies/${companyId}/dashboard?from=2030-01-01&to=2030-03-31`), headers: headers(owner) });
      expect(response.statusCode).toBe(200);
      return json<Answer<Dashboard>>(response).data.money;
    };
    expect(await read()).toEqual([]);
    await put(findir, { month: '2030-01', currency: 'RUB', amountMinor: 700 });
    await put(findir, { month: '2030-03', currency: 'RUB', amountMinor: 300 });
    await put(findir, { month: '2030-04', currency: 'RUB', amountMinor: 5_000 });
    expect(await read()).toEqual([
      {
        currency: 'RUB',
        expectedEffect12mMinor: 0,
        actualEffect12mMinor: 0,
        costsMinor: 0,
        efficiencyBasisPoints: null,
        // 700 + 300; April is after the period.
        ebitdaMinor: 1_000,
        ebitdaShareBasisPoints: 0,
        estimatedRemunerationMinor: 0,
        approvedRemunerationMinor: 0,
      },
    ]);
  });
});

describe('who may enter and read EBITDA', () => {
  it('lets only the financial director enter it', async () => {
    for (const who of [owner, ceo, finspec, head, employee]) {
      const response = await put(who, { month: '2031-01', currency: 'RUB', amountMinor: 1 });
      expect(response.statusCode).toBe(403);
    }
    expect(await rows(owner, '2031-01', '2031-01')).toEqual([]);
  });

  it('lets the company-wide roles read it, and nobody else', async () => {
    for (const who of [owner, ceo, findir, finspec]) expect((await list(who)).statusCode).toBe(200);
    for (const who of [head, employee]) expect((await list(who)).statusCode).toBe(403);
  });

  it("answers 404 to a non-member and for another company's id", async () => {
    expect((await put(outsider, { month: '2027-01', currency: 'RUB', amountMinor: 1 })).statusCode).toBe(404);
    expect((await list(outsider)).statusCode).toBe(404);
    expect((await put(findir, { month: '2027-01', currency: 'RUB', amountMinor: 1 }, {}, rivalId)).statusCode).toBe(404);
    expect((await list(owner, '2027-01', '2027-12', rivalId)).statusCode).toBe(404);
    const rival = await t.db.one<{ count: string }>('SELECT count(*)::text AS count FROM company_ebitda WHERE company_id = $1', [rivalId]);
    expect(rival?.count).toBe('0');
  });
});

describe('EBITDA input', () => {
  it('refuses a month that is not one, a currency we do not keep and an amount that is no whole number of minor units', async () => {
    const errorsOf = async (body: unknown) => {
      const response = await put(findir, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      return Object.keys(json<Answer<null>>(response).errors ?? {});
    };
    expect(await errorsOf({ month: '2027-13', currency: 'RUB', amountMinor: 1 })).toEqual(['month']);
    expect(await errorsOf({ month: '2027-1', currency: 'RUB', amountMinor: 1 })).toEqual(['month']);
    expect(await errorsOf({ month: '2027-01-01', currency: 'RUB', amountMinor: 1 })).toEqual(['month']);
    expect(await errorsOf({ month: '2027-01', currency: 'EUR', amountMinor: 1 })).toEqual(['currency']);
    expect(await errorsOf({ month: '2027-01', currency: 'RUB', amountMinor: 1.5 })).toEqual(['amountMinor']);
    expect(await errorsOf({ month: '2027-01', currency: 'RUB', amountMinor: 2 ** 53 })).toEqual(['amountMinor']);
    expect(await errorsOf({ month: '2027-01', currency: 'RUB' })).toEqual(['amountMinor']);
  });

  it('refuses a list whose months run backwards or span more than the longest dashboard', async () => {
    const backwards = await list(owner, '2027-05', '2027-04');
    expect(backwards.statusCode).toBe(400);
    expect(json<Answer<null>>(backwards).errors).toEqual({ to: 'The period cannot end before it starts and can be at most 5 years long.' });
    expect((await list(owner, '2020-01', '2025-02')).statusCode).toBe(200);
    expect((await list(owner, '2020-01', '2025-03')).statusCode).toBe(400);
    expect((await list(owner, '2027-00', '2027-04')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: api(`/companies/${companyId}/ebitda`), headers: headers(owner) })).statusCode).toBe(400);
  });
});
