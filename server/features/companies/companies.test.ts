import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { assert } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Company, VERIFICATION_AMOUNT_MINOR } from '../../../src/domain/company';
import type { CurrentUser } from '../../../src/domain/user';
import { createTestApp, json, type TestApp } from '../../test-support';
import {
  addMember,
  call,
  companyInput,
  companyRow,
  countCompanies,
  createCompanyAs,
  entrepreneurInn,
  legalEntityInn,
  login,
  uploadImage,
  type Login,
} from './fixtures';

let t: TestApp;
let owner: Login;
let ceo: Login;
let findir: Login;
let hr: Login;
let employee: Login;
let outsider: Login;
/** A company created through the API by `owner`, with a member of every other role. */
let acme: string;
/** Another tenant's company. */
let rival: string;

beforeAll(async () => {
  t = await createTestApp();
  [owner, ceo, findir, hr, employee, outsider] = await Promise.all([
    login(t, { firstName: 'Анна', lastName: 'Соколова', middleName: 'Игоревна', position: 'OWNER' }),
    login(t),
    login(t),
    login(t),
    login(t),
    login(t),
  ]);
  acme = await createCompanyAs(t, owner, { name: 'Acme' });
  await addMember(t, acme, ceo, ['CEO']);
  await addMember(t, acme, findir, ['FINANCIAL_DIRECTOR']);
  await addMember(t, acme, hr, ['HR']);
  await addMember(t, acme, employee, ['EMPLOYEE']);
  rival = await createCompanyAs(t, outsider, { name: 'Rival' });
});
afterAll(() => t.close());

const dataOf = <T>(response: LightMyRequestResponse) => json<{ data: T }>(response).data;

describe('POST /companies', () => {
  it('creates the company with an invoice number and makes the creator its OWNER member and employee', async () => {
    const input = companyInput({ name: 'ООО «Север»', website: 'https://sever.example', employeeCount: 40 });
    const response = await call(t, 'POST', '/companies', owner, input);
    expect(response.statusCode, response.body).toBe(201);
    const body = json<{ data: unknown; message: string }>(response);
    expect(body.message).toBe('The company has been created.');
    assert(body.data, Company);
    const company = body.data;
    expect(company).toMatchObject({
      name: 'ООО «Север»',
      legalForm: 'LEGAL_ENTITY',
      inn: input.inn,
      kpp: '773601001',
      website: 'https://sever.example',
      employeeCount: 40,
      logoImageId: null,
      verificationStatus: 'UNVERIFIED',
      paymentReportedAt: null,
      verificationDecidedAt: null,
      verificationComment: null,
      roles: ['OWNER'],
      missingForStart: ['MANAGER', 'FINANCIAL_DIRECTOR'],
    });
    expect(company.invoiceNumber).toMatch(/^INV-\d+$/);

    const stored = await t.db.one<{ invoice_amount_minor: string; created_by: string }>('SELECT invoice_amount_minor::text, created_by FROM companies WHERE id = $1', [company.id]);
    expect(stored).toEqual({ invoice_amount_minor: String(VERIFICATION_AMOUNT_MINOR), created_by: owner.id });
    expect(await t.db.one('SELECT roles, active FROM company_members WHERE company_id = $1 AND user_id = $2', [company.id, owner.id])).toEqual({ roles: ['OWNER'], active: true });
    expect(await t.db.query('SELECT user_id, last_name, first_name, middle_name, position, email, roles FROM employees WHERE company_id = $1', [company.id])).toEqual([
      { user_id: owner.id, last_name: 'Соколова', first_name: 'Анна', middle_name: 'Игоревна', position: 'Собственник', email: owner.email, roles: ['OWNER'] },
    ]);

    const me = dataOf<CurrentUser>(await call(t, 'GET', '/user', owner));
    expect(me.companies).toContainEqual({ id: company.id, name: 'ООО «Север»', roles: ['OWNER'] });
  });

  it('gives every company its own invoice number', async () => {
    const a = dataOf<Company>(await call(t, 'POST', '/companies', owner, companyInput()));
    const b = dataOf<Company>(await call(t, 'POST', '/companies', owner, companyInput()));
    expect(a.invoiceNumber).not.toBe(b.invoiceNumber);
  });

  it('creates an individual entrepreneur with a 12-digit INN and no KPP', async () => {
    const inn = entrepreneurInn();
    const response = await call(t, 'POST', '/companies', owner, { legalForm: 'ENTREPRENEUR', name: 'ИП Кравцов', inn });
    expect(response.statusCode, response.body).toBe(201);
    expect(dataOf<Company>(response)).toMatchObject({ legalForm: 'ENTREPRENEUR', inn, kpp: null, website: null, employeeCount: null });
  });

  it('reads the letters of a KPP in capitals and an empty website as none', async () => {
    const response = await call(t, 'POST', '/companies', owner, companyInput({ kpp: '7736ab001', website: '' }));
    expect(response.statusCode, response.body).toBe(201);
    expect(dataOf<Company>(response)).toMatchObject({ kpp: '7736AB001', website: null });
  });

  it('refuses each kind of bad input with its field error and creates nothing', async () => {
    const before = await countCompanies(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [companyInput({ name: undefined }), 'name', 'Fill in this field.'],
      [companyInput({ name: '   ' }), 'name', 'Fill in this field.'],
      [companyInput({ name: 'x'.repeat(201) }), 'name', 'The value is too long.'],
      [companyInput({ legalForm: 'LLC' }), 'legalForm', 'legalForm is not valid.'],
      [companyInput({ inn: '77070838a3' }), 'inn', 'The taxpayer number is not valid: check the digits.'],
      [companyInput({ inn: '7707083894' }), 'inn', 'The taxpayer number is not valid: check the digits.'],
      [companyInput({ inn: entrepreneurInn() }), 'inn', 'The taxpayer number is not valid: check the digits.'],
      [{ legalForm: 'ENTREPRENEUR', name: 'ИП', inn: legalEntityInn() }, 'inn', 'The taxpayer number is not valid: check the digits.'],
      [{ legalForm: 'ENTREPRENEUR', name: 'ИП', inn: '500100732258' }, 'inn', 'The taxpayer number is not valid: check the digits.'],
      [companyInput({ kpp: undefined }), 'kpp', 'A legal entity needs its tax code (KPP): 9 characters.'],
      [companyInput({ kpp: '77360100' }), 'kpp', 'The tax code (KPP) is 9 characters: 4 digits, 2 digits or capital letters, 3 digits.'],
      [{ legalForm: 'ENTREPRENEUR', name: 'ИП', inn: entrepreneurInn(), kpp: '773601001' }, 'kpp', 'An individual entrepreneur has no tax code (KPP): leave it empty.'],
      [companyInput({ website: 'not a site' }), 'website', 'Enter a website address, for example example.ru.'],
      [companyInput({ employeeCount: 0 }), 'employeeCount', 'employeeCount is not valid.'],
      [companyInput({ employeeCount: 1.5 }), 'employeeCount', 'employeeCount is not valid.'],
      [companyInput({ employeeCount: '12' }), 'employeeCount', 'employeeCount is not valid.'],
      [companyInput({ logoImageId: 'logo.png' }), 'logoImageId', 'logoImageId is not valid.'],
      [companyInput({ timeZone: 'Mars/Olympus_Mons' }), 'timeZone', 'Choose a time zone from the list, for example Europe/Moscow.'],
      [companyInput({ timeZone: 'MSK' }), 'timeZone', 'Choose a time zone from the list, for example Europe/Moscow.'],
      [companyInput({ timeZone: '' }), 'timeZone', 'Choose a time zone from the list, for example Europe/Moscow.'],
      [companyInput({ timeZone: 3 }), 'timeZone', 'timeZone is not valid.'],
    ];
    for (const [body, field, message] of cases) {
      const response = await call(t, 'POST', '/companies', owner, body);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(json(response), field).toEqual({ message: 'Check the highlighted fields.', errors: { [field]: message } });
    }
    expect(await countCompanies(t)).toBe(before);
  });

  it("keeps the company's time zone: Moscow unless one is chosen, an alias as the zone it names", async () => {
    const moscow = await call(t, 'POST', '/companies', owner, companyInput());
    expect(moscow.statusCode, moscow.body).toBe(201);
    expect(dataOf<Company>(moscow).timeZone).toBe('Europe/Moscow');
    const east = await call(t, 'POST', '/companies', owner, companyInput({ timeZone: 'Asia/Vladivostok' }));
    expect(east.statusCode, east.body).toBe(201);
    expect(dataOf<Company>(east).timeZone).toBe('Asia/Vladivostok');
    expect((await companyRow(t, dataOf<Company>(east).id))?.time_zone).toBe('Asia/Vladivostok');
    const typed = await call(t, 'POST', '/companies', owner, companyInput({ timeZone: ' europe/samara ' }));
    expect(typed.statusCode, typed.body).toBe(201);
    expect(dataOf<Company>(typed).timeZone).toBe('Europe/Samara');
    const listed = dataOf<Company[]>(await call(t, 'GET', '/companies', owner)).find((company) => company.id === dataOf<Company>(east).id);
    expect(listed?.timeZone).toBe('Asia/Vladivostok');
  });

  it('says in Russian too which time zone it refuses', async () => {
    const response = await call(t, 'POST', '/companies', owner, companyInput({ timeZone: 'Europe/Atlantis' }), { Language: 'ru' });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message: 'Проверьте выделенные поля.', errors: { timeZone: 'Выберите часовой пояс из списка, например Europe/Moscow.' } });
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const payload of ['[]', '"company"', '']) {
      const response = await t.app.inject({ method: 'POST', url: '/main-service/api/v1/companies', headers: { authorization: `Bearer ${owner.access}`, 'content-type': 'application/json' }, payload });
      expect(response.statusCode).toBe(400);
    }
  });

  it('refuses fields the caller may not set (verification state, id, roles, invoice) and creates nothing', async () => {
    const before = await countCompanies(t);
    for (const field of ['verificationStatus', 'id', 'roles', 'invoiceNumber', 'createdBy', 'companyId', 'paymentReportedAt']) {
      const value = field === 'verificationStatus' ? 'VERIFIED' : field === 'roles' ? ['OWNER'] : field === 'id' || field === 'companyId' ? randomUUID() : 'x';
      const response = await call(t, 'POST', '/companies', owner, companyInput({ [field]: value }));
      expect(response.statusCode, field).toBe(400);
      expect(json(response).errors, field).toEqual({ [field]: 'This field is not expected.' });
    }
    expect(await countCompanies(t)).toBe(before);
  });

  it('answers 409 companyInnTaken on errors.inn when the INN is registered, in the request language', async () => {
    const inn = legalEntityInn();
    expect((await call(t, 'POST', '/companies', owner, companyInput({ inn }))).statusCode).toBe(201);
    const before = await countCompanies(t);
    const en = await call(t, 'POST', '/companies', outsider, companyInput({ inn }));
    expect(en.statusCode).toBe(409);
    expect(json(en)).toEqual({
      message: 'A company with this taxpayer number (INN) is already registered on the platform.',
      errors: { inn: 'A company with this taxpayer number is already registered.' },
    });
    const ru = await call(t, 'POST', '/companies', outsider, companyInput({ inn }), { Language: 'ru' });
    expect(json(ru)).toEqual({ message: 'Компания с таким ИНН уже зарегистрирована на платформе.', errors: { inn: 'Компания с таким ИНН уже зарегистрирована.' } });
    expect(await countCompanies(t)).toBe(before);
  });

  it('lets only one of two simultaneous creations with the same INN through; the other answers 409', async () => {
    const input = companyInput();
    const before = await countCompanies(t);
    const answers = await Promise.all([call(t, 'POST', '/companies', owner, input), call(t, 'POST', '/companies', outsider, input)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(await countCompanies(t)).toBe(before + 1);
  });

  it("takes the caller's own fresh upload as the logo and gives the file to the company", async () => {
    const imageId = await uploadImage(t, owner);
    const response = await call(t, 'POST', '/companies', owner, companyInput({ logoImageId: imageId.toUpperCase() }));
    expect(response.statusCode, response.body).toBe(201);
    const company = dataOf<Company>(response);
    expect(company.logoImageId).toBe(imageId);
    expect(await t.db.one('SELECT company_id FROM files WHERE id = $1', [imageId])).toEqual({ company_id: company.id });
    // Now a member of the company may read it.
    await addMember(t, company.id, employee, ['EMPLOYEE']);
    expect((await call(t, 'GET', `/uploads/${imageId}`, employee)).statusCode).toBe(200);
  });

  it("refuses another user's upload, an upload that already belongs to a company and an unknown id, creating nothing", async () => {
    const othersImage = await uploadImage(t, outsider);
    const usedImage = await uploadImage(t, owner);
    await createCompanyAs(t, owner, { logoImageId: usedImage });
    const before = await countCompanies(t);
    for (const logoImageId of [othersImage, usedImage, randomUUID()]) {
      const response = await call(t, 'POST', '/companies', owner, companyInput({ logoImageId }));
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ message: 'Check the highlighted fields.', errors: { logoImageId: 'This image cannot be used as the logo: upload it again.' } });
    }
    expect(await countCompanies(t)).toBe(before);
    expect(await t.db.one('SELECT company_id FROM files WHERE id = $1', [othersImage])).toEqual({ company_id: null });
  });

  it('replays a retried creation with the same Idempotency-Key instead of creating a second company', async () => {
    const key = randomUUID();
    const input = companyInput();
    const first = await call(t, 'POST', '/companies', owner, input, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(201);
    const before = await countCompanies(t);
    const replay = await call(t, 'POST', '/companies', owner, input, { 'Idempotency-Key': key });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(json(replay)).toEqual(json(first));
    expect(await countCompanies(t)).toBe(before);
    const other = await call(t, 'POST', '/companies', owner, companyInput(), { 'Idempotency-Key': key });
    expect(other.statusCode).toBe(422);
    expect(await countCompanies(t)).toBe(before);
  });

  it('requires a session', async () => {
    const before = await countCompanies(t);
    expect((await call(t, 'POST', '/companies', null, companyInput())).statusCode).toBe(401);
    expect(await countCompanies(t)).toBe(before);
  });
});

describe('GET /companies', () => {
  it("lists the caller's active memberships by name, each with the caller's roles and what it lacks to start", async () => {
    const user = await login(t);
    const zeta = await createCompanyAs(t, user, { name: 'Zeta' });
    const alpha = await createCompanyAs(t, user, { name: 'Alpha' });
    await addMember(t, acme, user, ['EMPLOYEE', 'HR']);
    const left = await createCompanyAs(t, outsider, { name: 'Left' });
    await addMember(t, left, user, ['EMPLOYEE']);
    await t.db.query('UPDATE company_members SET active = false WHERE company_id = $1 AND user_id = $2', [left, user.id]);

    const response = await call(t, 'GET', '/companies', user);
    expect(response.statusCode).toBe(200);
    const companies = dataOf<Company[]>(response);
    for (const company of companies) assert(company, Company);
    expect(companies.map((c) => [c.id, c.name, c.roles])).toEqual([
      [acme, 'Acme', ['EMPLOYEE', 'HR']],
      [alpha, 'Alpha', ['OWNER']],
      [zeta, 'Zeta', ['OWNER']],
    ]);
    // Acme has an OWNER, a CEO (a manager) and a FINANCIAL_DIRECTOR: ready.
    expect(companies[0]?.missingForStart).toEqual([]);
    expect(companies[1]?.missingForStart).toEqual(['MANAGER', 'FINANCIAL_DIRECTOR']);
  });

  it('answers an empty list to a user without companies and 401 without a session', async () => {
    const user = await login(t);
    expect(dataOf<Company[]>(await call(t, 'GET', '/companies', user))).toEqual([]);
    expect((await call(t, 'GET', '/companies', null)).statusCode).toBe(401);
  });
});

describe('GET /companies/{companyId}', () => {
  it("answers the company to each member with that member's roles", async () => {
    for (const [who, roles] of [
      [owner, ['OWNER']],
      [ceo, ['CEO']],
      [findir, ['FINANCIAL_DIRECTOR']],
      [hr, ['HR']],
      [employee, ['EMPLOYEE']],
    ] as const) {
      const response = await call(t, 'GET', `/companies/${acme}`, who);
      expect(response.statusCode).toBe(200);
      const company = dataOf<unknown>(response);
      assert(company, Company);
      expect(company).toMatchObject({ id: acme, name: 'Acme', roles, missingForStart: [] });
    }
  });

  it("answers another company's id exactly like a missing or malformed one (404)", async () => {
    const missing = await call(t, 'GET', `/companies/${randomUUID()}`, owner);
    expect(missing.statusCode).toBe(404);
    for (const id of [rival, 'not-a-uuid']) {
      const response = await call(t, 'GET', `/companies/${id}`, owner);
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual(json(missing));
    }
  });

  it('is not shown to a member whose membership ended', async () => {
    const former = await login(t);
    await addMember(t, acme, former, ['EMPLOYEE']);
    await t.db.query('UPDATE company_members SET active = false WHERE company_id = $1 AND user_id = $2', [acme, former.id]);
    expect((await call(t, 'GET', `/companies/${acme}`, former)).statusCode).toBe(404);
  });
});

describe('PATCH /companies/{companyId}', () => {
  let company: string;
  let inn: string;
  beforeAll(async () => {
    inn = legalEntityInn();
    company = await createCompanyAs(t, owner, { name: 'Patchable', inn });
    await addMember(t, company, ceo, ['CEO']);
    await addMember(t, company, findir, ['FINANCIAL_DIRECTOR']);
    await addMember(t, company, hr, ['HR']);
    await addMember(t, company, employee, ['EMPLOYEE']);
  });

  it("lets the owner change the company's details", async () => {
    const newInn = legalEntityInn();
    const response = await call(t, 'PATCH', `/companies/${company}`, owner, { name: 'Patched', inn: newInn, kpp: '77360A001', website: 'patched.example', employeeCount: 7 });
    expect(response.statusCode, response.body).toBe(200);
    const body = json<{ data: unknown; message: string }>(response);
    expect(body.message).toBe("The company's details have been saved.");
    assert(body.data, Company);
    expect(body.data).toMatchObject({ name: 'Patched', inn: newInn, kpp: '77360A001', website: 'patched.example', employeeCount: 7, roles: ['OWNER'], missingForStart: [] });
    inn = newInn;
  });

  it('clears the optional details with null or an empty value', async () => {
    const response = await call(t, 'PATCH', `/companies/${company}`, owner, { website: '', employeeCount: null });
    expect(response.statusCode, response.body).toBe(200);
    expect(dataOf<Company>(response)).toMatchObject({ website: null, employeeCount: null });
  });

  it('turns a legal entity into an entrepreneur when the INN and KPP change with it, and refuses it otherwise', async () => {
    const other = await createCompanyAs(t, owner);
    const before = await companyRow(t, other);
    const keptKpp = await call(t, 'PATCH', `/companies/${other}`, owner, { legalForm: 'ENTREPRENEUR', inn: entrepreneurInn() });
    expect(keptKpp.statusCode).toBe(400);
    expect(json(keptKpp).errors).toEqual({ kpp: 'An individual entrepreneur has no tax code (KPP): leave it empty.' });
    const keptInn = await call(t, 'PATCH', `/companies/${other}`, owner, { legalForm: 'ENTREPRENEUR', kpp: null });
    expect(json(keptInn).errors).toEqual({ inn: 'The taxpayer number is not valid: check the digits.' });
    expect(await companyRow(t, other)).toEqual(before);
    const ok = await call(t, 'PATCH', `/companies/${other}`, owner, { legalForm: 'ENTREPRENEUR', inn: entrepreneurInn(), kpp: null });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(dataOf<Company>(ok)).toMatchObject({ legalForm: 'ENTREPRENEUR', kpp: null });
  });

  it('refuses each kind of bad input and changes nothing', async () => {
    const before = await companyRow(t, company);
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ inn: '123' }, 'inn'],
      [{ inn: '7707083894' }, 'inn'],
      [{ kpp: '1' }, 'kpp'],
      [{ kpp: null }, 'kpp'],
      [{ legalForm: 'LLC' }, 'legalForm'],
      [{ website: 'no site' }, 'website'],
      [{ employeeCount: -1 }, 'employeeCount'],
      [{ logoImageId: randomUUID() }, 'logoImageId'],
      [{ timeZone: 'Moscow' }, 'timeZone'],
      [{ timeZone: null }, 'timeZone'],
    ] as const) {
      const response = await call(t, 'PATCH', `/companies/${company}`, owner, body);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(Object.keys(json<{ errors: object }>(response).errors), field).toEqual([field]);
    }
    expect(await companyRow(t, company)).toEqual(before);
  });

  it('refuses fields the caller may not set (verification state, roles, invoice) and changes nothing', async () => {
    const before = await companyRow(t, company);
    for (const [field, value] of [
      ['verificationStatus', 'VERIFIED'],
      ['roles', ['OWNER']],
      ['invoiceNumber', 'INV-1'],
      ['id', randomUUID()],
      ['verificationComment', 'ok'],
      ['createdBy', outsider.id],
    ] as const) {
      const response = await call(t, 'PATCH', `/companies/${company}`, owner, { name: 'Hacked', [field]: value });
      expect(response.statusCode, field).toBe(400);
      expect(json(response).errors, field).toEqual({ [field]: 'This field is not expected.' });
    }
    expect(await companyRow(t, company)).toEqual(before);
  });

  it('is refused (403) to every role but OWNER, with nothing changed', async () => {
    const before = await companyRow(t, company);
    for (const who of [ceo, findir, hr, employee]) {
      const response = await call(t, 'PATCH', `/companies/${company}`, who, { name: 'Not yours' });
      expect(response.statusCode).toBe(403);
      expect(json(response)).toEqual({ message: 'You do not have the right to do this.' });
    }
    expect(await companyRow(t, company)).toEqual(before);
  });

  it("answers another company's id exactly like a missing one (404), with nothing changed", async () => {
    const before = await companyRow(t, rival);
    const missing = await call(t, 'PATCH', `/companies/${randomUUID()}`, owner, { name: 'X' });
    expect(missing.statusCode).toBe(404);
    for (const id of [rival, 'bad-id']) {
      const response = await call(t, 'PATCH', `/companies/${id}`, owner, { name: 'X' });
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual(json(missing));
    }
    expect(await companyRow(t, rival)).toEqual(before);
  });

  it('answers 409 companyInnTaken when the new INN belongs to another company', async () => {
    const before = await companyRow(t, company);
    const taken = String((await companyRow(t, rival))?.inn);
    const response = await call(t, 'PATCH', `/companies/${company}`, owner, { inn: taken });
    expect(response.statusCode).toBe(409);
    expect(json(response).errors).toEqual({ inn: 'A company with this taxpayer number is already registered.' });
    expect(await companyRow(t, company)).toEqual(before);
  });

  it('sets and replaces the logo with fresh uploads of the caller, and removes it with null', async () => {
    const first = await uploadImage(t, owner);
    const set = await call(t, 'PATCH', `/companies/${company}`, owner, { logoImageId: first });
    expect(dataOf<Company>(set).logoImageId).toBe(first);
    // The same logo again is not a new claim.
    expect((await call(t, 'PATCH', `/companies/${company}`, owner, { logoImageId: first })).statusCode).toBe(200);
    const notMine = await uploadImage(t, ceo);
    expect((await call(t, 'PATCH', `/companies/${company}`, owner, { logoImageId: notMine })).statusCode).toBe(400);
    const second = await uploadImage(t, owner);
    expect(dataOf<Company>(await call(t, 'PATCH', `/companies/${company}`, owner, { logoImageId: second })).logoImageId).toBe(second);
    expect(await t.db.one('SELECT company_id FROM files WHERE id = $1', [second])).toEqual({ company_id: company });
    expect(dataOf<Company>(await call(t, 'PATCH', `/companies/${company}`, owner, { logoImageId: null })).logoImageId).toBeNull();
  });

  it('locks the legal details while the payment is checked and once verified, but not the rest', async () => {
    const locked = await createCompanyAs(t, owner, { name: 'Locked' });
    for (const status of ['PAYMENT_REPORTED', 'VERIFIED']) {
      await t.db.query('UPDATE companies SET verification_status = $2 WHERE id = $1', [locked, status]);
      const before = await companyRow(t, locked);
      for (const body of [{ name: 'Renamed' }, { inn: legalEntityInn() }, { kpp: '773601002' }, { legalForm: 'ENTREPRENEUR', inn: entrepreneurInn(), kpp: null }]) {
        const response = await call(t, 'PATCH', `/companies/${locked}`, owner, body);
        expect(response.statusCode, `${status} ${JSON.stringify(body)}`).toBe(409);
        expect(json(response)).toEqual({ message: "The company's legal details cannot be changed while the payment is being checked or after the company is verified." });
      }
      expect(await companyRow(t, locked)).toEqual(before);
      // The same details sent back unchanged (a whole form) and the other fields are accepted.
      const unchanged = await call(t, 'PATCH', `/companies/${locked}`, owner, { name: 'Locked', kpp: String(before?.kpp), website: `${status.toLowerCase().replace('_', '-')}.example` });
      expect(unchanged.statusCode, unchanged.body).toBe(200);
      expect(dataOf<Company>(unchanged)).toMatchObject({ name: 'Locked', website: `${status.toLowerCase().replace('_', '-')}.example`, verificationStatus: status });
    }
    await t.db.query(`UPDATE companies SET verification_status = 'REJECTED' WHERE id = $1`, [locked]);
    expect((await call(t, 'PATCH', `/companies/${locked}`, owner, { name: 'Fixed after rejection' })).statusCode).toBe(200);
  });

  it('changes the time zone in any verification state (it says how times are printed, not who the company is)', async () => {
    const moving = await createCompanyAs(t, owner, { name: 'Moving' });
    for (const [status, zone] of [['UNVERIFIED', 'Asia/Yekaterinburg'], ['PAYMENT_REPORTED', 'Asia/Irkutsk'], ['VERIFIED', 'Europe/Kaliningrad']] as const) {
      await t.db.query('UPDATE companies SET verification_status = $2 WHERE id = $1', [moving, status]);
      const before = await companyRow(t, moving);
      const response = await call(t, 'PATCH', `/companies/${moving}`, owner, { timeZone: zone });
      expect(response.statusCode, response.body).toBe(200);
      expect(dataOf<Company>(response)).toMatchObject({ timeZone: zone, verificationStatus: status });
      const after = await companyRow(t, moving);
      expect(after?.time_zone).toBe(zone);
      // A change of the zone is a change of the row: the pull brings it to every device.
      expect(Number(after?.change_seq)).toBeGreaterThan(Number(before?.change_seq));
    }
    // The zone sent back unchanged is no change at all.
    const before = await companyRow(t, moving);
    expect((await call(t, 'PATCH', `/companies/${moving}`, owner, { timeZone: 'Europe/Kaliningrad' })).statusCode).toBe(200);
    expect(await companyRow(t, moving)).toEqual(before);
  });

  it('replays a retried change with the same Idempotency-Key', async () => {
    const key = randomUUID();
    const first = await call(t, 'PATCH', `/companies/${company}`, owner, { employeeCount: 99 }, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(200);
    await t.db.query('UPDATE companies SET employee_count = 5 WHERE id = $1', [company]);
    const replay = await call(t, 'PATCH', `/companies/${company}`, owner, { employeeCount: 99 }, { 'Idempotency-Key': key });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(json(replay)).toEqual(json(first));
    expect((await companyRow(t, company))?.employee_count).toBe(5);
  });

  it('requires a session', async () => {
    expect((await call(t, 'PATCH', `/companies/${company}`, null, { name: 'X' })).statusCode).toBe(401);
  });
});

describe('POST /companies/{companyId}/payment-reported', () => {
  let company: string;
  beforeAll(async () => {
    company = await createCompanyAs(t, owner, { name: 'Payer' });
    await addMember(t, company, ceo, ['CEO']);
    await addMember(t, company, findir, ['FINANCIAL_DIRECTOR']);
    await addMember(t, company, hr, ['HR']);
    await addMember(t, company, employee, ['EMPLOYEE']);
  });

  it('is refused (403) to every role but OWNER, with nothing changed', async () => {
    const before = await companyRow(t, company);
    for (const who of [ceo, findir, hr, employee]) {
      expect((await call(t, 'POST', `/companies/${company}/payment-reported`, who, {})).statusCode).toBe(403);
    }
    expect(await companyRow(t, company)).toEqual(before);
  });

  it("answers another company's id exactly like a missing one (404), with nothing changed", async () => {
    const before = await companyRow(t, rival);
    const missing = await call(t, 'POST', `/companies/${randomUUID()}/payment-reported`, owner, {});
    expect(missing.statusCode).toBe(404);
    const response = await call(t, 'POST', `/companies/${rival}/payment-reported`, owner, {});
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual(json(missing));
    expect(await companyRow(t, rival)).toEqual(before);
  });

  it('refuses any field in the body (the state is not the caller to set)', async () => {
    const before = await companyRow(t, company);
    const response = await call(t, 'POST', `/companies/${company}/payment-reported`, owner, { verificationStatus: 'VERIFIED' });
    expect(response.statusCode).toBe(400);
    expect(json(response).errors).toEqual({ verificationStatus: 'This field is not expected.' });
    expect(await companyRow(t, company)).toEqual(before);
  });

  it('moves the company to PAYMENT_REPORTED when the owner presses "I paid", once', async () => {
    const key = randomUUID();
    const response = await call(t, 'POST', `/companies/${company}/payment-reported`, owner, undefined, { 'Idempotency-Key': key });
    expect(response.statusCode, response.body).toBe(200);
    const body = json<{ data: unknown; message: string }>(response);
    expect(body.message).toBe('Thank you! We will check the payment within 5 days.');
    assert(body.data, Company);
    expect(body.data.verificationStatus).toBe('PAYMENT_REPORTED');
    expect(Math.abs(Date.parse(body.data.paymentReportedAt ?? '') - Date.now())).toBeLessThan(60_000);

    const replay = await call(t, 'POST', `/companies/${company}/payment-reported`, owner, undefined, { 'Idempotency-Key': key });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');

    const again = await call(t, 'POST', `/companies/${company}/payment-reported`, owner, {});
    expect(again.statusCode).toBe(409);
    expect(json(again)).toEqual({ message: "This cannot be done in the company's current verification state. Reload the page to see it." });
  });

  it('is refused once verified, and accepted again after a rejection (the old verdict is cleared)', async () => {
    const other = await createCompanyAs(t, owner);
    await t.db.query(`UPDATE companies SET verification_status = 'VERIFIED' WHERE id = $1`, [other]);
    expect((await call(t, 'POST', `/companies/${other}/payment-reported`, owner, {})).statusCode).toBe(409);
    await t.db.query(`UPDATE companies SET verification_status = 'REJECTED', verification_decided_at = now(), verification_comment = 'No payment' WHERE id = $1`, [other]);
    const response = await call(t, 'POST', `/companies/${other}/payment-reported`, owner, {});
    expect(response.statusCode).toBe(200);
    expect(dataOf<Company>(response)).toMatchObject({ verificationStatus: 'PAYMENT_REPORTED', verificationDecidedAt: null, verificationComment: null });
  });

  it('gives a company made before invoice numbers existed its number', async () => {
    const legacy = await t.db.one<{ id: string }>(`INSERT INTO companies (name) VALUES ('Legacy') RETURNING id`);
    await addMember(t, legacy!.id, owner, ['OWNER']);
    const response = await call(t, 'POST', `/companies/${legacy!.id}/payment-reported`, owner, {});
    expect(dataOf<Company>(response).invoiceNumber).toMatch(/^INV-\d+$/);
  });

  it('requires a session', async () => {
    expect((await call(t, 'POST', `/companies/${company}/payment-reported`, null, {})).statusCode).toBe(401);
  });
});
