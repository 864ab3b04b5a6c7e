import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { employeeRow, goalRow, projectRow, suggestionRow } from '../../../tests/fixtures/rows';
import type { MemberView } from '../../domain/permissions';
import { Project } from '../../domain/project';
import { AppDatabase } from '../../lib/db/database';
import { enqueue, listOutbox, writeWithOutbox } from '../../lib/outbox/outbox';
import { projectCreateOutboxKind, projectEditOutboxKind } from './create-outbox-kind';
import { ProjectRefusedError, createProject, editProject, storeSentProject, type ProjectDraft, type ProjectWriteContext } from './store';

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

const ME = 'u-head';
const COMPANY = 'c1';
const DEPARTMENT = 'd1';
const MANAGER = '11111111-1111-4111-8111-111111111111';
const MEMBER = '22222222-2222-4222-8222-222222222222';
const OTHER_COMPANY_EMPLOYEE = '33333333-3333-4333-8333-333333333333';
const GOAL = '44444444-4444-4444-8444-444444444444';
const PROPOSAL = '55555555-5555-4555-8555-555555555555';
const OWN_IMAGE = '77777777-7777-4777-8777-777777777777';
const NOW = new Date('2026-11-20T08:00:00.000Z');

const head: MemberView = { userId: ME, roles: ['MIDDLE_MANAGER'], headOfDepartmentIds: [DEPARTMENT] };
const employee: MemberView = { userId: ME, roles: ['EMPLOYEE'], headOfDepartmentIds: [] };

const draft: ProjectDraft = {
  name: '  Быстрая переналадка ',
  problem: 'Переналадка занимает 40 минут',
  type: 'TECHNICAL',
  businessCustomerEmployeeId: null,
  goalIds: [GOAL],
  baselineMetric: { value: 40, unitId: 'MINUTES' },
  targetMetric: { value: 20, unitId: 'MINUTES' },
  completionDate: '2027-03-31',
  reportingFrequency: 'MONTHLY',
  postMonitoringPeriodicity: 'QUARTERLY',
  projectManagerEmployeeId: MANAGER,
  team: [{ employeeId: MEMBER, role: ' Технолог ' }],
  currency: 'RUB',
  profitBasisPoints: 1250,
  maxPerProjectMinor: 15_000_000,
  effectRepeatability: 'RECURRING',
};

async function openDb(): Promise<AppDatabase> {
  const db = new AppDatabase(`projects-store-${Math.random()}`);
  opened.push(db);
  await db.employees.bulkPut([
    { ...employeeRow(MANAGER, { userId: ME, lastName: 'Петров', firstName: 'Пётр', middleName: 'Петрович', serviceNumber: '0042' }), ownerUserId: ME },
    { ...employeeRow(MEMBER, { lastName: 'Смирнова', firstName: 'Анна', serviceNumber: '0077' }), ownerUserId: ME },
    { ...employeeRow(OTHER_COMPANY_EMPLOYEE, { companyId: 'c2' }), ownerUserId: ME },
  ]);
  await db.goals.put({ ...goalRow(GOAL), ownerUserId: ME });
  return db;
}

function contextOf(db: AppDatabase, member: MemberView = head): ProjectWriteContext {
  return { db, actor: { id: ME, fullName: 'Петров Пётр' }, member, now: () => NOW };
}

async function counts(db: AppDatabase) {
  return { projects: await db.projects.count(), outbox: await db.outbox.count(), files: await db.files.count() };
}

async function refusal(write: Promise<unknown>): Promise<ProjectRefusedError> {
  const error: unknown = await write.then(
    () => null,
    (failure: unknown) => failure,
  );
  if (!(error instanceof ProjectRefusedError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('createProject', () => {
  it('stores the project (NEW, history CREATED, no remuneration), its photos and its outbox row together', async () => {
    const db = await openDb();
    const photo = { data: new Uint8Array([1, 2, 3]).buffer, type: 'image/jpeg', name: 'a.jpg' };
    const id = await createProject(contextOf(db), COMPANY, draft, { photos: [photo] });

    const stored = await db.projects.get([ME, id]);
    expect(Project.is(stored)).toBe(true);
    expect(stored).toMatchObject({
      id,
      companyId: COMPANY,
      name: 'Быстрая переналадка',
      status: 'NEW',
      remunerationMinor: null,
      departmentId: DEPARTMENT,
      authorUserId: ME,
      projectManagerUserId: ME,
      team: [{ employeeId: MEMBER, name: 'Смирнова Анна', serviceNumber: '0077', role: 'Технолог' }],
      history: [{ action: 'CREATED', fromStatus: null, toStatus: 'NEW', byUserId: ME, at: NOW.toISOString() }],
      createdAt: NOW.toISOString(),
    });
    const [row] = await listOutbox(db, ME);
    expect(row).toMatchObject({
      kind: 'project.create',
      method: 'POST',
      path: `/api/v1/companies/${COMPANY}/projects`,
      entityKey: `projects:${id}`,
      fileField: 'imageIds',
    });
    expect(row?.fileIds).toHaveLength(1);
    expect(row?.body).toMatchObject({ id, name: 'Быстрая переналадка', imageIds: [], payments: [], suggestionId: null, team: [{ employeeId: MEMBER, role: 'Технолог' }] });
    expect(await counts(db)).toEqual({ projects: 1, outbox: 1, files: 1 });
  });

  it('carries an approved proposal: its title is the user’s to keep, its author, department and photos go with it', async () => {
    const db = await openDb();
    const images = [{ imageId: 'i1', imageLink: '/uploads/i1', name: 'a.jpg' }];
    await db.suggestions.put({
      ...suggestionRow(PROPOSAL, { companyId: COMPANY, departmentId: 'd9', authorId: 'author-1', at: NOW.toISOString() }, { status: 'APPROVED', images, authorName: 'Сидоров Сидор' }),
      ownerUserId: ME,
    });
    const id = await createProject(contextOf(db, { ...head, roles: ['OWNER'] }), COMPANY, draft, { suggestionId: PROPOSAL });
    expect(await db.projects.get([ME, id])).toMatchObject({ suggestionId: PROPOSAL, departmentId: 'd9', authorUserId: 'author-1', authorName: 'Сидоров Сидор', images });
    expect((await listOutbox(db, ME))[0]?.body).toMatchObject({ suggestionId: PROPOSAL, imageIds: [] });

    // The same proposal does not become a second project.
    const second = await refusal(createProject(contextOf(db, { ...head, roles: ['OWNER'] }), COMPANY, draft, { suggestionId: PROPOSAL }));
    expect(second.reason).toBe('taken');
    expect(second.projectId).toBe(id);
    expect(await counts(db)).toEqual({ projects: 1, outbox: 1, files: 0 });
  });

  it('refuses and stores nothing: a role that may not create, bad input, people or goals not of the company, an unapproved proposal', async () => {
    const db = await openDb();
    expect((await refusal(createProject(contextOf(db, employee), COMPANY, draft))).reason).toBe('notAllowed');
    const invalid = await refusal(createProject(contextOf(db), COMPANY, { ...draft, name: ' ', profitBasisPoints: 10_001, completionDate: '2027-02-30' }));
    expect(invalid.reason).toBe('invalid');
    expect(invalid.fieldErrors).toMatchObject({ name: 'required', profitBasisPoints: 'percentRange', completionDate: 'invalid' });
    const outsider = await refusal(createProject(contextOf(db), COMPANY, { ...draft, team: [{ employeeId: OTHER_COMPANY_EMPLOYEE, role: 'Слесарь' }] }));
    expect(outsider.fieldErrors).toEqual({ 'team.0.employeeId': 'notFound' });
    const goal = await refusal(createProject(contextOf(db), COMPANY, { ...draft, goalIds: [PROPOSAL] }));
    expect(goal.fieldErrors).toEqual({ goalIds: 'notFound' });
    await db.suggestions.put({ ...suggestionRow(PROPOSAL, { companyId: COMPANY, departmentId: DEPARTMENT, authorId: 'a', at: NOW.toISOString() }), ownerUserId: ME });
    expect((await refusal(createProject(contextOf(db), COMPANY, draft, { suggestionId: PROPOSAL }))).reason).toBe('notApproved');
    expect((await refusal(createProject(contextOf(db), 'c2', draft, { suggestionId: PROPOSAL }))).reason).toBe('missing');
    expect(await counts(db)).toEqual({ projects: 0, outbox: 0, files: 0 });
  });
});

describe('editProject', () => {
  it('queues a PATCH with the new fields and an EDITED entry while the project is NEW', async () => {
    const db = await openDb();
    const id = '66666666-6666-4666-8666-666666666666';
    await db.projects.put({
      ...projectRow(id, { projectManagerEmployeeId: MANAGER, projectManagerUserId: ME, images: [{ imageId: OWN_IMAGE, imageLink: '/u/own-1', name: 'x.jpg' }] }),
      ownerUserId: ME,
    });
    await editProject(contextOf(db, employee), COMPANY, id, { ...draft, name: 'Новое имя' });
    const stored = await db.projects.get([ME, id]);
    expect(stored).toMatchObject({ name: 'Новое имя', updatedAt: NOW.toISOString() });
    expect(stored?.history.at(-1)).toMatchObject({ action: 'EDITED', fromStatus: 'NEW', toStatus: 'NEW' });
    const [row] = await listOutbox(db, ME);
    expect(row).toMatchObject({ kind: 'project.edit', method: 'PATCH', path: `/api/v1/companies/${COMPANY}/projects/${id}`, entityKey: `projects:${id}` });
    expect(row?.body).toMatchObject({ name: 'Новое имя', imageIds: [OWN_IMAGE] });
  });

  it('refuses a non-lead and a project past FOR_REVISION, storing nothing', async () => {
    const db = await openDb();
    const id = '66666666-6666-4666-8666-666666666666';
    await db.projects.put({ ...projectRow(id, { projectManagerEmployeeId: MEMBER, projectManagerUserId: 'someone' }), ownerUserId: ME });
    expect((await refusal(editProject(contextOf(db, employee), COMPANY, id, draft))).reason).toBe('notAllowed');
    await db.projects.put({ ...projectRow(id, { projectManagerEmployeeId: MANAGER, projectManagerUserId: ME, status: 'CALCULATING' }), ownerUserId: ME });
    expect((await refusal(editProject(contextOf(db, employee), COMPANY, id, draft))).reason).toBe('notEditable');
    expect(await db.outbox.count()).toBe(0);
    expect((await db.projects.get([ME, id]))?.name).toBe('Быстрая переналадка');
  });

  it('revises a creation the server refused instead of queueing a PATCH behind it', async () => {
    const db = await openDb();
    const id = await createProject(contextOf(db), COMPANY, draft);
    const [created] = await listOutbox(db, ME);
    await db.outbox.update(created?.seq ?? 0, { status: 'failed', lastError: { status: 400, message: 'bad' } });
    await editProject(contextOf(db), COMPANY, id, { ...draft, name: 'Исправлено' });
    const rows = await listOutbox(db, ME);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'project.create', status: 'pending', body: { name: 'Исправлено', id } });
    expect(rows[0]?.id).not.toBe(created?.id);
    expect((await db.projects.get([ME, id]))?.history.map((entry) => entry.action)).toEqual(['CREATED']);
  });
});

describe('the success handler and the outbox kinds', () => {
  it('stores the server’s project unless a later change of it waits', async () => {
    const db = await openDb();
    const id = await createProject(contextOf(db), COMPANY, draft);
    const [row] = await listOutbox(db, ME);
    if (!row) throw new Error('no row');
    const server = { ...projectRow(id), name: 'С сервера' };
    await writeWithOutbox(db, [db.projects], () =>
      enqueue(db, { ownerUserId: ME, kind: 'project.edit', method: 'PATCH', path: `/api/v1/companies/${COMPANY}/projects/${id}`, body: {}, entityKey: `projects:${id}` }),
    );
    await storeSentProject({ db, row, data: server });
    expect((await db.projects.get([ME, id]))?.name).toBe('Быстрая переналадка');
    await db.outbox.filter((other) => other.kind === 'project.edit').delete();
    await storeSentProject({ db, row, data: server });
    expect((await db.projects.get([ME, id]))?.name).toBe('С сервера');
  });

  it('names the rows and links to the form and the project', async () => {
    const db = await openDb();
    const id = await createProject(contextOf(db), COMPANY, draft);
    const [row] = await listOutbox(db, ME);
    if (!row) throw new Error('no row');
    expect(projectCreateOutboxKind.labelValues(row)).toEqual({ name: 'Быстрая переналадка' });
    expect(projectCreateOutboxKind.editHref(row)).toBe(`/companies/${COMPANY}/projects/create?edit=${id}`);
    expect(projectCreateOutboxKind.viewHref(row)).toBe(`/companies/${COMPANY}/projects/${id}`);
    const edit = { ...row, kind: 'project.edit', path: `/api/v1/companies/${COMPANY}/projects/${id}` };
    expect(projectEditOutboxKind.viewHref(edit)).toBe(`/companies/${COMPANY}/projects/${id}`);
    expect(projectEditOutboxKind.editHref({ ...edit, path: '/api/v1/other' })).toBeNull();
  });
});
