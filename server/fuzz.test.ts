// No input reaches a 500. Every route the app registers (listed by `recordRoutes`, so a new route is fuzzed
// without being named here) is called through app.inject by the owner of a ready company with fuzzed path
// parameters, queries, headers and bodies: objects with the field names of the domain structs and values drawn
// from strings with control characters and unpaired surrogates, huge and odd numbers, nested objects, arrays,
// nulls and wrong types; valid bodies with one field spoiled; bodies that are not JSON objects at all; and, on
// the multipart routes, forms with fuzzed names and contents, complete or cut off. Every answer must be below
// 500, and so must every operation's answer inside a push batch. The /admin routes are called by a platform
// admin instead, so that they too are fuzzed past their access check.
//
// Deterministic: every route runs with the seed FUZZ_SEED (fast-check prints it, with the failing call and the
// path to it, when a property fails); FUZZ_RUNS sets the calls per route, FUZZ_ROUTE keeps only the routes whose
// "METHOD /path" contains it. Replay a failure: `FUZZ_SEED=<seed> FUZZ_ROUTE='PATCH /user' npx vitest run
// --project server server/fuzz.test.ts`.

import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { Struct } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as authStructs from '../src/domain/auth';
import * as companyStructs from '../src/domain/company';
import { API_PREFIX } from '../src/domain/paths';
import * as suggestionStructs from '../src/domain/suggestion';
import * as userStructs from '../src/domain/user';
import { registeredRoutes, type RegisteredRoute } from './http';
import { api, createTestApp, json, registrationInput, type TestApp } from './test-support';
import { companyInput, PNG } from './features/companies/fixtures';
import { createCompany, signUpMember, type Fixture, type Login } from './features/suggestions/fixtures';

const SEED = Number(process.env.FUZZ_SEED ?? 20250601);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const ROUTE_FILTER = process.env.FUZZ_ROUTE ?? '';

let t: TestApp;
let owner: Login;
/** The platform admin, who calls the /admin routes in place of the owner (who would only get 403 there). */
let admin: Login;
let acme: Fixture;
let rival: Fixture;
/** Real values the fuzzer mixes in, so calls get past "not found" into the services. */
const known = {
  ids: [] as string[],
  byParam: {} as Record<string, string[]>,
  cursors: [] as string[],
};

// ------------------------------------------------------------------------------------------------ values

/** Characters no text may hold, the ones only multi-line text may hold, and some that often trip parsers. */
const NASTY_CHARACTERS = [
  '\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f', '\ud800', '\udbff', '\udc00', '\udfff',
  '\t', '\n', '\r', '\u0085', '\u00a0', '\u2028', '\ufeff', '\ufffd', '\uffff',
  '%', '%00', "'", '"', '\\', '`', '=', '+', '-', '@', '_', '*', '/', '..', '.', ',', ';', ':', '?', '#', '&', '<', '>', '{', '}', '[', ']', '$1', ' ',
  'я', 'Ё', '😀', '𠀀',
];

const ENUM_VALUES = [
  ...authStructs.COMPANY_ROLES, ...authStructs.POSITIONS, ...authStructs.IMPLEMENTATION_GOALS, ...companyStructs.LEGAL_FORMS,
  ...companyStructs.VERIFICATION_STATUSES, ...companyStructs.EMPLOYEE_STATES, ...companyStructs.IMPORT_FIELDS,
  ...suggestionStructs.SUGGESTION_SCOPES, ...suggestionStructs.SUGGESTION_STATUSES, ...suggestionStructs.CURRENCIES, ...suggestionStructs.SYNC_TABLES,
  'ru', 'en', 'POST', 'PATCH', 'DELETE', 'GET', 'xlsx', 'csv', '1', 'true', 'upsert', 'delete',
];

const ODD_STRINGS = [
  '', ' ', '0', '-1', '1.5', '1e309', 'NaN', 'Infinity', 'null', 'undefined', 'true', '[]', '{}', '__proto__', 'constructor',
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '2024-02-30T25:61:61Z', '0000-01-01T00:00:00Z',
  'x'.repeat(5000), '9'.repeat(400), 'ы'.repeat(3000), 'a@b.c', `${'a'.repeat(64)}@${'b'.repeat(250)}.ru`, "'; DROP TABLE users; --",
  '%s%s%s%n', '../../etc/passwd', '=HYPERLINK("http://evil.example")', 'eyJsIjoiXHUwMDAwIiwiZiI6IngiLCJpIjoiMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwIn0',
];

/** A cursor made the way the lists make theirs (base64url JSON), with fuzzed content: what a forged one looks like. */
const forgedCursor = (content: unknown) => Buffer.from(JSON.stringify(content)).toString('base64url');

const nastyCharacter = fc.oneof(fc.constantFrom(...NASTY_CHARACTERS), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: nastyCharacter, maxLength: 24 }) },
  { weight: 2, arbitrary: fc.constantFrom(...ENUM_VALUES) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: fc.constant(null).chain(() => fc.constantFrom(...known.ids, ...known.cursors)) },
  { weight: 1, arbitrary: fc.tuple(fc.constant(null).chain(() => fc.constantFrom(...known.ids)), nastyCharacter).map(([id, c]) => `${id}${c}`) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ unit: nastyCharacter, maxLength: 6 }), fc.string({ unit: nastyCharacter, maxLength: 6 }), fc.uuid()).map(([l, f, i]) => forgedCursor({ l, f, i })) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ unit: nastyCharacter, maxLength: 6 }), fc.string({ maxLength: 40 })).map(([c, k]) => forgedCursor({ c, k, t: c, s: k })) },
);

const ODD_NUMBERS = [0, -0, 1, -1, 0.5, 1e308, -1e308, 5e-324, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, 10_000_001, 100_001];

/** Field names of every input and answer struct of src/domain, at any depth, and a few that are not. */
function fieldNames(): string[] {
  const names = new Set<string>(['operations', 'id', 'method', 'path', 'body', 'refresh_token', 'token', '__proto__', 'constructor', 'prototype', '', ' ', 'a\u0000b', 'x'.repeat(300)]);
  const visit = (struct: unknown, depth: number) => {
    if (!(struct instanceof Struct) || depth > 4) return;
    const schema: unknown = struct.schema;
    if (schema instanceof Struct) visit(schema, depth + 1);
    else if (typeof schema === 'object' && schema !== null) {
      for (const [name, inner] of Object.entries(schema)) {
        names.add(name);
        visit(inner, depth + 1);
      }
    }
  };
  for (const module of [authStructs, companyStructs, suggestionStructs, userStructs]) for (const value of Object.values(module)) visit(value, 0);
  return [...names];
}

const FIELD_NAMES = fieldNames();
const fieldName = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...FIELD_NAMES) }, { weight: 1, arbitrary: fc.string({ unit: nastyCharacter, maxLength: 8 }) });

const { value: jsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: nastyString },
    { weight: 2, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_NUMBERS) },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(fieldName, tie('value'), { maxKeys: 4 }) },
  ),
}));

const fuzzedObject = fc.dictionary(fieldName, jsonValue, { maxKeys: 8 });

// ------------------------------------------------------------------------------------------------ bodies

type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string }
  | { kind: 'none' }
  | { kind: 'multipart'; payload: Buffer; contentType: string };

/** A valid body of the routes that take one, so that one spoiled field is all that is wrong. */
function templateFor(method: string, path: string): Record<string, unknown> | null {
  const route = `${method} ${path.slice(API_PREFIX.length)}`;
  const proposal = () => ({ id: randomUUID(), title: 'Стеллаж', problem: 'Долго\nищем', solution: 'Купить', expectedEffect: 'Быстрее', departmentId: acme.departments.A, imageIds: [], effectEstimate: { amountMinor: 100, currency: 'RUB' } });
  const templates: Record<string, () => Record<string, unknown>> = {
    'POST /auth/register': () => registrationInput(),
    'POST /auth/register/hr': () => ({ ...registrationInput(), role: undefined, mainGoal: undefined }),
    'POST /auth/login': () => ({ email: owner.email, password: 'wrong password' }),
    'POST /auth/verify-email': () => ({ token: randomBytes(16).toString('hex') }),
    'POST /auth/resend-verification': () => ({ email: owner.email }),
    'POST /auth/recovery-password': () => ({ email: owner.email }),
    'POST /auth/recovery-password/confirm': () => ({ token: randomBytes(16).toString('hex'), password: 'new password' }),
    'POST /auth/logout': () => ({ refresh_token: randomBytes(16).toString('hex') }),
    'PATCH /user': () => ({ firstName: 'Иван', lastName: 'Петров', middleName: null, phone: '+7 912 345-67-89', locale: 'en' }),
    'POST /user/password': () => ({ currentPassword: 'not the password', newPassword: 'another password' }),
    'POST /companies': () => companyInput(),
    'PATCH /companies/:companyId': () => ({ name: 'ООО «Ромашка 2»', website: 'example.ru', employeeCount: 10 }),
    'POST /companies/:companyId/departments': () => ({ name: 'Склад', headUserId: owner.id }),
    'PATCH /companies/:companyId/departments/:departmentId': () => ({ name: 'Склад 2', headUserId: null }),
    'POST /companies/:companyId/employees': () => ({ lastName: 'Кузнецова', firstName: 'Анна', email: `${randomUUID()}@acme.test`, serviceNumber: randomUUID(), departmentId: acme.departments.B, roles: ['EMPLOYEE'] }),
    'PATCH /companies/:companyId/employees/:employeeId': () => ({ position: 'Мастер', departmentId: acme.departments.A }),
    'POST /companies/:companyId/suggestions': proposal,
    'POST /companies/:companyId/invitations': () => ({ email: `${randomUUID()}@acme.test`, roles: ['EMPLOYEE'], lastName: 'Новиков', firstName: 'Олег' }),
    'POST /invitations/:token/accept': () => ({ password: 'a good password' }),
    'POST /admin/companies/:companyId/verification': () => ({ decision: 'REJECTED', comment: 'Нет платежа' }),
    'POST /sync/push': () => ({ operations: [{ id: randomUUID(), method: 'POST', path: `/api/v1/companies/${acme.companyId}/suggestions`, body: proposal() }] }),
  };
  return templates[route]?.() ?? null;
}

/** Bodies of nesting deep enough to overflow anything that recurses over them. */
const DEEP = 100_000;
const RAW_BODIES = [
  'not json', '{"a":', '{"name":"\\u0000"}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', 'null', '[]', '"text"', '1e999', '{"a":1}{"b":2}',
  `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`, `{"name":${'['.repeat(DEEP)}"x"${']'.repeat(DEEP)}}`, `{"operations":[{"id":"${randomUUID()}","method":"POST","path":"/x","body":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}]}`,
];

/** The characters no text may hold (and line breaks, which only multi-line text may): what the service refuses. */
const REFUSED_CHARACTER = fc.oneof(
  // NUL most often: the one character PostgreSQL itself refuses in text, so the one that turned into 500s.
  { weight: 4, arbitrary: fc.constant('\u0000') },
  { weight: 3, arbitrary: fc.constantFrom('\u0001', '\u001b', '\u007f', '\ud800', '\udfff', '\n', '\t') },
);

/** `value` with a refused character put somewhere inside it (or in place of it, when it is no text). */
const withRefusedCharacter = (value: unknown) =>
  fc.tuple(REFUSED_CHARACTER, fc.nat()).map(([c, at]) => {
    if (typeof value !== 'string') return c;
    const i = value.length === 0 ? 0 : at % (value.length + 1);
    return `${value.slice(0, i)}${c}${value.slice(i)}`;
  });

/** The template with a refused character put into every text in it, at any depth. */
function poisoned(template: unknown): fc.Arbitrary<unknown> {
  return fc.tuple(REFUSED_CHARACTER, fc.nat()).map(([c, at]) => {
    const poison = (value: unknown): unknown => {
      if (typeof value === 'string') {
        const i = at % (value.length + 1);
        return `${value.slice(0, i)}${c}${value.slice(i)}`;
      }
      if (Array.isArray(value)) return value.map(poison);
      if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v)]));
      return value;
    };
    return poison(template);
  });
}

/** The template with one or two fields spoiled: a fuzzed value, or its own value with a refused character in it. */
function spoiled(template: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(template);
  const change = fc.oneof(
    fc.tuple(fc.oneof(fc.constantFrom(...keys), fieldName), jsonValue),
    fc.constantFrom(...keys).chain((key) => withRefusedCharacter(template[key]).map((value): [string, unknown] => [key, value])),
  );
  return fc.array(change, { minLength: 1, maxLength: 2 }).map((changes) => {
    const body = { ...template };
    for (const [key, value] of changes) body[key] = value;
    return body;
  });
}

/** A pushed batch whose operations are themselves fuzzed (the batch answers 200; each operation must not 500). */
const fuzzedPush = fc
  .array(
    fc.record({
      id: fc.oneof(fc.uuid(), nastyString),
      method: fc.oneof(fc.constantFrom('POST', 'PATCH', 'DELETE'), nastyString),
      path: fc.oneof(
        fc.constant(null).map(() => `/api/v1/companies/${acme.companyId}/suggestions`),
        fc.constant(null).map(() => `/api/v1/companies/${rival.companyId}/suggestions`),
        nastyString.map((s) => `/api/v1/companies/${s}/suggestions`),
        nastyString,
      ),
      body: fc.oneof(fc.constant(null).map(() => templateFor('POST', api('/companies/:companyId/suggestions'))).chain((t) => (t ? fc.oneof(fc.constant(t), spoiled(t), poisoned(t)) : fuzzedObject)), jsonValue),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((operations) => ({ operations }));

// A multipart form as a browser frames it, with fuzzed names and contents, complete or cut off anywhere.
function multipartBody(): fc.Arbitrary<Body> {
  const fileContent = fc.oneof(
    fc.constant(null).map(() => Buffer.from(PNG)),
    fc.constant(null).map(() => Buffer.from('\ufeffФамилия;Имя;Email\r\nИва\u0000нов;Иван;a@b.ru\r\n=1+1;@x;-2\r\n', 'utf8')),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    nastyString.map((s) => Buffer.from(s, 'utf8')),
  );
  const part = fc.record({ name: fc.oneof(fc.constantFrom('file', 'mapping', 'other'), nastyString), filename: fc.option(nastyString), content: fileContent });
  return fc.tuple(fc.array(part, { minLength: 0, maxLength: 3 }), fc.option(fc.integer({ min: 0, max: 2000 })), fc.boolean()).map(([parts, cutAt, closed]) => {
    const boundary = `----fuzz${randomBytes(6).toString('hex')}`;
    const chunks: Buffer[] = [];
    for (const p of parts) {
      const disposition = `form-data; name="${p.name.replace(/["\r\n]/g, '')}"${p.filename === null ? '' : `; filename="${p.filename.replace(/["\r\n]/g, '')}"`}`;
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`), p.content, Buffer.from('\r\n'));
    }
    if (closed) chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const whole = Buffer.concat(chunks);
    const payload = cutAt === null ? whole : whole.subarray(0, Math.min(cutAt, whole.length));
    return { kind: 'multipart', payload, contentType: `multipart/form-data; boundary=${boundary}` };
  });
}

const MULTIPART_ROUTES = new Set(['POST /files/upload', 'POST /companies/:companyId/employees/import']);

function bodyFor(method: string, url: string): fc.Arbitrary<Body> {
  const route = `${method} ${url.slice(API_PREFIX.length)}`;
  const template = templateFor(method, url);
  const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value): Body => ({ kind: 'json', value }));
  const choices: fc.WeightedArbitrary<Body>[] = [
    { weight: 4, arbitrary: json(fuzzedObject) },
    { weight: 1, arbitrary: json(jsonValue) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' }) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...RAW_BODIES), fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded')).map(([text, contentType]): Body => ({ kind: 'raw', text, contentType })) },
  ];
  if (template) {
    choices.push(
      { weight: 1, arbitrary: json(fc.constant(null).map(() => templateFor(method, url))) },
      { weight: 4, arbitrary: json(spoiled(template)) },
      { weight: 3, arbitrary: json(poisoned(template)) },
    );
  }
  if (route === 'POST /sync/push') choices.push({ weight: 6, arbitrary: json(fuzzedPush) });
  if (MULTIPART_ROUTES.has(route)) choices.push({ weight: 8, arbitrary: multipartBody() });
  return fc.oneof(...choices);
}

// ------------------------------------------------------------------------------------------------ URLs

/** Percent-encodes UTF-8 bytes (a lone surrogate becomes EF BF BD, as a browser sends it). */
const encode = (value: string) => [...Buffer.from(value, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)).join('');

/** Fragments sent as they are: invalid percent escapes, invalid UTF-8, encoded separators. */
const RAW_FRAGMENTS = ['%00', '%ED%A0%80', '%FF', '%C0%AF', '%', '%zz', '%2F', '%2e%2e', '..', '%25', '%E0%A4%A', '%u0000', '+', '&', '='];

const urlPiece = fc.oneof(
  { weight: 5, arbitrary: nastyString.map(encode) },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_FRAGMENTS) },
  { weight: 1, arbitrary: fc.tuple(nastyString, fc.constantFrom(...RAW_FRAGMENTS)).map(([s, raw]) => `${encode(s)}${raw}`) },
);

const QUERY_NAMES = ['search', 'departmentId', 'state', 'cursor', 'limit', 'scope', 'status', 'companyId', 'keys', 'format', 'dryRun', 'token', 'id'];
const queryName = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...QUERY_NAMES) }, { weight: 1, arbitrary: urlPiece });
const knownValue = fc.constant(null).chain(() => fc.constantFrom(...known.cursors, ...known.ids, ...ENUM_VALUES));
const queryValue = fc.oneof(
  { weight: 6, arbitrary: urlPiece },
  { weight: 3, arbitrary: knownValue.map(encode) },
  { weight: 2, arbitrary: knownValue.chain(withRefusedCharacter).map(encode) },
);
const queryString = fc
  .array(fc.tuple(queryName, queryValue), { maxLength: 5 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${/%|[^A-Za-z0-9_.~-]/.test(name) ? name : encode(name)}=${value}`).join('&')}`));

function paramValue(name: string): fc.Arbitrary<string> {
  const real = known.byParam[name] ?? [];
  return fc.oneof(
    { weight: real.length > 0 ? 5 : 0, arbitrary: real.length > 0 ? fc.constantFrom(...real) : fc.constant('') },
    { weight: real.length > 0 ? 1 : 0, arbitrary: real.length > 0 ? fc.constantFrom(...real).chain(withRefusedCharacter).map(encode) : fc.constant('') },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 4, arbitrary: urlPiece.filter((piece) => piece.length > 0) },
  );
}

function urlFor(url: string): fc.Arbitrary<string> {
  const names = [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] ?? '');
  const wildcard = url.endsWith('*');
  return fc.tuple(fc.tuple(...names.map(paramValue)), wildcard ? fc.array(urlPiece, { maxLength: 3 }) : fc.constant([]), queryString).map(([values, rest, query]) => {
    let path = url;
    names.forEach((name, i) => {
      path = path.replace(`:${name}`, values[i] ?? '');
    });
    if (wildcard) path = path.replace(/\*$/, rest.join('/'));
    return `${path}${query}`;
  });
}

const headers = fc.record({
  language: fc.constantFrom('en', 'ru', 'EN-us', 'de', '', 'en;q=0.5, ru'),
  authorization: fc.oneof({ weight: 12, arbitrary: fc.constant('owner') }, { weight: 1, arbitrary: fc.constantFrom('', 'Bearer ', 'Bearer x.y.z', 'Basic Zm9vOmJhcg==', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.') }),
  idempotencyKey: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.constantFrom('not-a-key', '00000000-0000-0000-0000-000000000000', ' ') }),
});

// ------------------------------------------------------------------------------------------------ calls

interface FuzzCall {
  method: string;
  url: string;
  body: Body;
  headers: { language: string; authorization: string; idempotencyKey: string | null };
}

function send(call: FuzzCall): Promise<LightMyRequestResponse> {
  const h: Record<string, string> = { Language: call.headers.language };
  if (call.headers.authorization === 'owner') h.authorization = `Bearer ${(call.url.startsWith(api('/admin/')) ? admin : owner).access}`;
  else if (call.headers.authorization !== '') h.authorization = call.headers.authorization;
  if (call.headers.idempotencyKey !== null) h['Idempotency-Key'] = call.headers.idempotencyKey;
  const { body } = call;
  let payload: string | Buffer | undefined;
  if (body.kind === 'json') {
    h['content-type'] = 'application/json';
    payload = JSON.stringify(body.value) ?? 'null';
  } else if (body.kind === 'raw' || body.kind === 'multipart') {
    h['content-type'] = body.contentType;
    payload = body.kind === 'raw' ? body.text : body.payload;
  }
  return t.app.inject({ method: call.method as 'GET', url: call.url, headers: h, ...(payload === undefined ? {} : { payload }) });
}

/** What a failure prints: enough to replay the call by hand. */
function describeCall(call: FuzzCall, response: LightMyRequestResponse): string {
  const { body } = call;
  const shown = body.kind === 'json' ? JSON.stringify(body.value) : body.kind === 'raw' ? body.text : body.kind === 'multipart' ? body.payload.toString('latin1') : '';
  return `${call.method} ${call.url} ${JSON.stringify(call.headers)} body(${body.kind}): ${JSON.stringify(shown.slice(0, 600))} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
}

/** The statuses a push batch answered for its operations (none when the batch itself was refused). */
function operationStatuses(call: FuzzCall, response: LightMyRequestResponse): number[] {
  if (!call.url.startsWith(api('/sync/push')) || response.statusCode !== 200) return [];
  const results = json<{ data?: { results?: { status?: unknown }[] } }>(response).data?.results ?? [];
  return results.map((r) => (typeof r.status === 'number' ? r.status : 0));
}

async function seedKnownValues(): Promise<void> {
  const as = (method: 'GET' | 'POST', path: string, payload?: object) =>
    t.app.inject({ method, url: api(path), headers: { authorization: `Bearer ${owner.access}`, Language: 'en' }, ...(payload ? { payload } : {}) });
  const created = await as('POST', `/companies/${acme.companyId}/suggestions`, templateFor('POST', api('/companies/:companyId/suggestions'))!);
  const suggestionId = json<{ data?: { id?: string } }>(created).data?.id;
  const employees = await t.db.query<{ id: string }>('SELECT id FROM employees WHERE company_id = $1', [acme.companyId]);
  const invited = await as('POST', `/companies/${acme.companyId}/invitations`, templateFor('POST', api('/companies/:companyId/invitations'))!);
  const invitationId = json<{ data?: { id?: string } }>(invited).data?.id;
  const cursorOf = async (path: string) => {
    const data = json<{ data?: { nextCursor?: unknown } }>(await as('GET', path)).data;
    return typeof data?.nextCursor === 'string' ? [data.nextCursor] : [];
  };
  await as('POST', `/companies/${acme.companyId}/suggestions`, templateFor('POST', api('/companies/:companyId/suggestions'))!);
  known.cursors = [
    ...(await cursorOf(`/companies/${acme.companyId}/suggestions?limit=1`)),
    ...(await cursorOf(`/companies/${acme.companyId}/employees?limit=1`)),
    ...(await cursorOf(`/sync/pull?companyId=${acme.companyId}&limit=1`)),
  ];
  const files = await t.db.query<{ id: string }>('SELECT id FROM files LIMIT 1');
  known.byParam = {
    companyId: [acme.companyId, acme.companyId, rival.companyId],
    departmentId: Object.values(acme.departments),
    employeeId: employees.map((e) => e.id),
    suggestionId: suggestionId ? [suggestionId] : [],
    invitationId: invitationId ? [invitationId] : [],
    token: [randomBytes(24).toString('base64url')],
    fileName: files.map((f) => `${f.id}.png`),
    importId: [],
  };
  known.ids = [...new Set([owner.id, ...Object.values(known.byParam).flat()])];
  if (known.cursors.length === 0) known.cursors = [forgedCursor({})];
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpMember(t);
  const other = await signUpMember(t);
  admin = await signUpMember(t);
  await t.db.query(`UPDATE users SET role = 'ADMIN', authorities = '{ROLE_ADMIN}' WHERE id = $1`, [admin.id]);
  acme = await createCompany(t.db, 'Acme', { [owner.id]: ['OWNER'] });
  rival = await createCompany(t.db, 'Rival', { [other.id]: ['OWNER'] });
  await seedKnownValues();
});
afterAll(() => t.close());

describe('fuzzing every route', () => {
  it('finds every route the app registers', () => {
    const routes = registeredRoutes(t.app).filter((r) => r.url.startsWith(API_PREFIX));
    // Sanity of the listing itself: a route of each kind (declared, hand-registered, multipart, operation).
    for (const expected of ['GET /health', 'POST /auth/register', 'PATCH /companies/:companyId/employees/:employeeId', 'POST /files/upload', 'POST /companies/:companyId/suggestions', 'POST /sync/push']) {
      expect(routes.map((r) => `${r.method} ${r.url.slice(API_PREFIX.length)}`)).toContain(expected);
    }
  });

  const routes = (): RegisteredRoute[] => {
    const seen = new Set<string>();
    const all = registeredRoutes(t.app).filter((r) => r.method !== 'HEAD' && r.url.startsWith(API_PREFIX));
    // The API's not-found handler, reached by any other path under the prefix.
    all.push({ method: 'GET', url: `${API_PREFIX}/*` }, { method: 'POST', url: `${API_PREFIX}/*` });
    return all.filter((r) => !seen.has(`${r.method} ${r.url}`) && seen.add(`${r.method} ${r.url}`));
  };

  it('answers every fuzzed call of every route below 500', async () => {
    const list = routes();
    expect(list.length).toBeGreaterThan(30);
    for (const route of list) {
      if (!`${route.method} ${route.url.slice(API_PREFIX.length)}`.includes(ROUTE_FILTER)) continue;
      const call = fc.record({ method: fc.constant(route.method), url: urlFor(route.url), body: bodyFor(route.method, route.url), headers });
      await fc.assert(
        fc.asyncProperty(call, async (c) => {
          const response = await send(c);
          const where = describeCall(c, response);
          expect(response.statusCode, where).toBeLessThan(500);
          for (const status of operationStatuses(c, response)) expect(status, where).toBeLessThan(500);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
    // And the app still serves the owner afterwards.
    const health = await t.app.inject({ method: 'GET', url: api('/health') });
    expect(health.statusCode).toBe(200);
  }, 300_000);
});
