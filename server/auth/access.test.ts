// Entity access (access.ts): a photo is readable by whoever may read its proposal, not by any member.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, uploadImage } from '../features/companies/fixtures';
import { createCompany, signUpMember, type Fixture, type Login } from '../features/suggestions/fixtures';
import { createTestApp, json, type TestApp } from '../test-support';
import { allowedIds, requireEntityAccess } from './access';

let t: TestApp;
let author: Login;
let headOfA: Login;
let headOfB: Login;
let owner: Login;
let colleague: Login;
let outsider: Login;
let acme: Fixture;
let suggestionId: string;
let attached: string;
let loose: string;

beforeAll(async () => {
  t = await createTestApp();
  const logins = await Promise.all(Array.from({ length: 6 }, () => signUpMember(t)));
  [author, headOfA, headOfB, owner, colleague, outsider] = logins as [Login, Login, Login, Login, Login, Login];
  acme = await createCompany(
    t.db,
    'Acme',
    { [author.id]: ['EMPLOYEE'], [headOfA.id]: ['EMPLOYEE'], [headOfB.id]: ['EMPLOYEE'], [owner.id]: ['OWNER'], [colleague.id]: ['EMPLOYEE'] },
    { A: headOfA.id, B: headOfB.id },
  );
  attached = await uploadImage(t, author);
  loose = await uploadImage(t, author);
  const submitted = await call(t, 'POST', `/companies/${acme.companyId}/suggestions`, author, {
    title: 'Fewer steps',
    problem: 'Too many steps',
    solution: 'Remove two',
    expectedEffect: 'Faster',
    departmentId: acme.departments.A,
    imageIds: [attached],
  });
  expect(submitted.statusCode).toBe(201);
  suggestionId = json<{ data: { id: string } }>(submitted).data.id;
});
afterAll(() => t.close());

describe('entity access', () => {
  it('lets a photo of a proposal be read by those who may read the proposal, and nobody else', async () => {
    for (const who of [author, headOfA, owner]) expect(await allowedIds(t.db, who, 'file.read', [attached])).toEqual(new Set([attached]));
    for (const who of [headOfB, colleague, outsider]) expect(await allowedIds(t.db, who, 'file.read', [attached])).toEqual(new Set());
  });

  it('serves the photo over HTTP by the same rule, 404 for a member who may not read the proposal', async () => {
    const get = (who: Login) => t.app.inject({ method: 'GET', url: `/main-service/api/v1/uploads/${attached}.png`, headers: { authorization: `Bearer ${who.access}` } });
    expect((await get(headOfA)).statusCode).toBe(200);
    expect((await get(colleague)).statusCode).toBe(404);
    expect((await get(outsider)).statusCode).toBe(404);
  });

  it('lets an unattached photo be read by its uploader only', async () => {
    expect(await allowedIds(t.db, author, 'file.read', [loose])).toEqual(new Set([loose]));
    expect(await allowedIds(t.db, owner, 'file.read', [loose])).toEqual(new Set());
  });

  it('reads proposals by canSeeSuggestion and refuses all of a list when one is not allowed', async () => {
    for (const who of [author, headOfA, owner]) await requireEntityAccess(t.db, who, 'suggestion.read', [suggestionId.toUpperCase()]);
    for (const who of [headOfB, colleague, outsider]) await expect(requireEntityAccess(t.db, who, 'suggestion.read', [suggestionId])).rejects.toMatchObject({ status: 404 });
    await expect(requireEntityAccess(t.db, author, 'suggestion.read', [suggestionId, 'not-a-uuid'])).rejects.toMatchObject({ status: 404 });
    await expect(requireEntityAccess(t.db, author, 'suggestion.read', [])).rejects.toMatchObject({ status: 404 });
  });
});
