import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MemberView } from '../../domain/permissions';
import type { Project } from '../../domain/project';
import { AppDatabase } from '../../lib/db/database';
import { enqueue, entityKeyOf, writeWithOutbox } from '../../lib/outbox/outbox';
import { projectRow } from '../../../tests/fixtures/rows';
import { projectOutboxKinds, projectTransitionOutboxKind } from './outbox-kind';
import {
  PROJECT_COMPLETE_KIND,
  PROJECT_INDICATOR_KIND,
  PROJECT_PAYMENTS_KIND,
  PROJECT_TRANSITION_KIND,
  completeProject,
  reportProjectIndicator,
  saveProjectPayments,
  storeDecidedProject,
  transitionProject,
  type ProjectActionContext,
} from './transition-store';
import { ProjectRefusedError } from './refusal';

const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const PROD = '00000000-0000-4000-8000-0000000000d1';
const ID = '00000000-0000-4000-8000-0000000000f1';
const PM_USER = '00000000-0000-4000-8000-0000000000a1';
const PM_EMP = '00000000-0000-4000-8000-0000000000e1';
const MATE_EMP = '00000000-0000-4000-8000-0000000000e2';
const FIN_USER = '00000000-0000-4000-8000-0000000000a2';
const DM_USER = '00000000-0000-4000-8000-0000000000a3';
const EMP_USER = '00000000-0000-4000-8000-0000000000a4';
const REPORT_ID = '00000000-0000-4000-8000-0000000000b1';
const NOW = new Date('2026-11-20T10:00:00.000Z');

const pm: MemberView = { userId: PM_USER, roles: ['EMPLOYEE'], headOfDepartmentIds: [] };
const finance: MemberView = { userId: FIN_USER, roles: ['FINANCIAL_SPECIALIST'], headOfDepartmentIds: [] };
const director: MemberView = { userId: DM_USER, roles: ['DIRECTION_MANAGER'], headOfDepartmentIds: [] };
const employee: MemberView = { userId: EMP_USER, roles: ['EMPLOYEE'], headOfDepartmentIds: [] };

const opened: AppDatabase[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`project-transitions-${Math.random()}`);
  opened.push(db);
  return db;
}

function project(fields: Partial<Project> = {}): Project {
  return projectRow(ID, {
    companyId: COMPANY,
    departmentId: PROD,
    projectManagerEmployeeId: PM_EMP,
    projectManagerUserId: PM_USER,
    team: [{ employeeId: MATE_EMP, name: 'Иванов Иван', serviceNumber: '0042', role: 'Технолог' }],
    profitBasisPoints: 1250,
    maxPerProjectMinor: 5_000_000,
    ...fields,
  });
}

/** The project in the mirror of `owner` and of every other user of these tests (each reads their own copy). */
async function put(db: AppDatabase, row: Project): Promise<void> {
  await db.projects.bulkPut([PM_USER, FIN_USER, DM_USER, EMP_USER].map((ownerUserId) => ({ ...row, ownerUserId })));
}

async function seed(db: AppDatabase, _owner: string, fields: Partial<Project> = {}): Promise<void> {
  await put(db, project(fields));
}

function contextOf(db: AppDatabase, member: MemberView, name = 'Петров Пётр'): ProjectActionContext {
  return { db, actor: { id: member.userId, fullName: name }, member, now: () => NOW };
}

async function local(db: AppDatabase, owner: string) {
  return db.projects.get([owner, ID]);
}

async function expectNothingStored(db: AppDatabase, owner: string, before: Project) {
  expect(await db.outbox.count()).toBe(0);
  const after = await local(db, owner);
  expect(after?.status).toBe(before.status);
  expect(after?.history).toEqual(before.history);
}

describe('a move of the project on the device', () => {
  it('sends a new project for calculation: status, history and the outbox row in one transaction', async () => {
    const db = openDb();
    await seed(db, PM_USER);
    const afterWrite = vi.fn();
    const transaction = vi.spyOn(db, 'transaction');
    await transitionProject({ ...contextOf(db, pm), afterWrite }, COMPANY, ID, { to: 'CALCULATING', comment: null });

    expect(transaction).toHaveBeenCalledOnce();
    const row = await local(db, PM_USER);
    expect(row).toMatchObject({ status: 'CALCULATING', updatedAt: NOW.toISOString() });
    expect(row?.history.at(-1)).toEqual({
      at: NOW.toISOString(),
      action: 'TRANSITION',
      fromStatus: 'NEW',
      toStatus: 'CALCULATING',
      byUserId: PM_USER,
      byName: 'Петров Пётр',
      comment: null,
    });
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({
        kind: PROJECT_TRANSITION_KIND,
        method: 'POST',
        path: `/api/v1/companies/${COMPANY}/projects/${ID}/transitions`,
        body: { to: 'CALCULATING', comment: null },
        entityKey: entityKeyOf('projects', ID),
        ownerUserId: PM_USER,
        status: 'pending',
      }),
    ]);
    expect(afterWrite).toHaveBeenCalledOnce();
  });

  it('stores the calculation and recomputes the remuneration with its cap', async () => {
    const db = openDb();
    await seed(db, FIN_USER, { status: 'CALCULATING' });
    await transitionProject(contextOf(db, finance), COMPANY, ID, { to: 'CALCULATED', estimatedCostsMinor: 10_000_00, expectedEffect12mMinor: 1_000_001 });
    // 12.5 % of 10,000.01 is 1,250.00125: rounded down to the minor unit.
    expect(await local(db, FIN_USER)).toMatchObject({ status: 'CALCULATED', estimatedCostsMinor: 10_000_00, expectedEffect12mMinor: 1_000_001, remunerationMinor: 125_000 });
    expect((await db.outbox.toArray())[0]?.body).toEqual({ to: 'CALCULATED', comment: null, estimatedCostsMinor: 10_000_00, expectedEffect12mMinor: 1_000_001 });

    const capped = openDb();
    await seed(capped, FIN_USER, { status: 'CALCULATING' });
    await transitionProject(contextOf(capped, finance), COMPANY, ID, { to: 'CALCULATED', estimatedCostsMinor: 0, expectedEffect12mMinor: 100_000_000 });
    expect((await local(capped, FIN_USER))?.remunerationMinor).toBe(5_000_000);
  });

  it('refuses and stores nothing: the wrong role, a missing reason or calculation, payments above the new remuneration', async () => {
    const db = openDb();
    const before = project({ status: 'CALCULATED', remunerationMinor: 100_000, expectedEffect12mMinor: 800_000 });
    await put(db, before);
    await expect(transitionProject(contextOf(db, employee), COMPANY, ID, { to: 'APPROVED' })).rejects.toMatchObject({ reason: 'notAllowed' });
    await expect(transitionProject(contextOf(db, finance), COMPANY, ID, { to: 'APPROVED' })).rejects.toMatchObject({ reason: 'notAllowed' });
    await expect(transitionProject(contextOf(db, director), COMPANY, ID, { to: 'FOR_REVISION', comment: '   ' })).rejects.toMatchObject({
      reason: 'invalid',
      fieldErrors: { comment: 'required' },
    });
    await expectNothingStored(db, EMP_USER, before);

    const calculating = openDb();
    const withPayments = project({ status: 'CALCULATING', payments: [{ employeeId: MATE_EMP, amountMinor: 50_000 }] });
    await put(calculating, withPayments);
    await expect(transitionProject(contextOf(calculating, finance), COMPANY, ID, { to: 'CALCULATED', estimatedCostsMinor: 1 })).rejects.toMatchObject({
      reason: 'invalid',
      fieldErrors: { expectedEffect12mMinor: 'required' },
    });
    // 12.5 % of 1,000.00 is 125.00, below the 500.00 already paid out.
    await expect(
      transitionProject(contextOf(calculating, finance), COMPANY, ID, { to: 'CALCULATED', estimatedCostsMinor: 1, expectedEffect12mMinor: 100_000 }),
    ).rejects.toMatchObject({ reason: 'invalid', fieldErrors: { expectedEffect12mMinor: 'belowPayments' } });
    await expectNothingStored(calculating, FIN_USER, withPayments);
  });

  it('does not apply a move the current state does not allow (decided meanwhile)', async () => {
    const db = openDb();
    const before = project({ status: 'APPROVED' });
    await put(db, before);
    const refusal = transitionProject(contextOf(db, director), COMPANY, ID, { to: 'APPROVED' });
    await expect(refusal).rejects.toBeInstanceOf(ProjectRefusedError);
    await expect(refusal).rejects.toMatchObject({ reason: 'wrongState', status: 'APPROVED' });
    await expectNothingStored(db, DM_USER, before);
  });

  it('refuses a project that is not on the device or is of another company', async () => {
    const db = openDb();
    await expect(transitionProject(contextOf(db, pm), COMPANY, ID, { to: 'CALCULATING' })).rejects.toMatchObject({ reason: 'missing' });
    await seed(db, PM_USER, { companyId: 'other' });
    await expect(transitionProject(contextOf(db, pm), COMPANY, ID, { to: 'CALCULATING' })).rejects.toMatchObject({ reason: 'missing' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('approves: the first report falls due one reporting period from today; returns with the reason', async () => {
    const db = openDb();
    await seed(db, DM_USER, { status: 'CALCULATED', reportingFrequency: 'MONTHLY' });
    await transitionProject(contextOf(db, director), COMPANY, ID, { to: 'APPROVED' });
    expect(await local(db, DM_USER)).toMatchObject({ status: 'APPROVED', nextReportDue: '2026-12-20' });

    const other = openDb();
    await seed(other, DM_USER, { status: 'CALCULATED' });
    await transitionProject(contextOf(other, director), COMPANY, ID, { to: 'FOR_REVISION', comment: ' Effect overstated ' });
    const returned = await local(other, DM_USER);
    expect(returned?.status).toBe('FOR_REVISION');
    expect(returned?.history.at(-1)).toMatchObject({ fromStatus: 'CALCULATED', toStatus: 'FOR_REVISION', comment: 'Effect overstated' });
    expect((await other.outbox.toArray())[0]?.body).toEqual({ to: 'FOR_REVISION', comment: 'Effect overstated' });
  });
});

describe('completion, indicator reports and payments on the device', () => {
  it('completes an approved project: actual date and effect, post-monitoring due date; not a date in the future', async () => {
    const db = openDb();
    const before = project({ status: 'APPROVED', nextReportDue: '2026-12-01', reportOverdueAt: '2026-12-02T00:00:00.000Z' });
    await put(db, before);
    await expect(completeProject(contextOf(db, pm), COMPANY, ID, { actualCompletionDate: '2026-11-21', actualEffect12mMinor: 1 })).rejects.toMatchObject({
      reason: 'invalid',
      fieldErrors: { actualCompletionDate: 'future' },
    });
    await expect(completeProject(contextOf(db, director), COMPANY, ID, { actualCompletionDate: '2026-11-20', actualEffect12mMinor: 1 })).rejects.toMatchObject({ reason: 'notAllowed' });
    await expectNothingStored(db, PM_USER, before);

    await completeProject(contextOf(db, pm), COMPANY, ID, { actualCompletionDate: '2026-11-20', actualEffect12mMinor: 9_000_00 });
    expect(await local(db, PM_USER)).toMatchObject({
      status: 'COMPLETED',
      actualCompletionDate: '2026-11-20',
      actualEffect12mMinor: 9_000_00,
      nextReportDue: '2027-02-20',
      reportOverdueAt: null,
    });
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({ kind: PROJECT_COMPLETE_KIND, path: `/api/v1/companies/${COMPANY}/projects/${ID}/complete`, body: { actualCompletionDate: '2026-11-20', actualEffect12mMinor: 9_000_00, comment: null } }),
    ]);
  });

  it('files the lead’s indicator report and moves the due date on; refuses others and the wrong state', async () => {
    const db = openDb();
    await seed(db, PM_USER, { status: 'APPROVED', nextReportDue: '2026-12-01', reportOverdueAt: '2026-12-02T00:00:00.000Z' });
    await reportProjectIndicator(contextOf(db, pm), COMPANY, ID, { id: REPORT_ID, date: '2026-11-19', value: 31.5, comment: ' Half done ' });
    const row = await local(db, PM_USER);
    expect(row?.indicatorReports).toEqual([{ id: REPORT_ID, date: '2026-11-19', value: 31.5, comment: 'Half done', at: NOW.toISOString(), byUserId: PM_USER, byName: 'Петров Пётр' }]);
    expect(row).toMatchObject({ nextReportDue: '2027-01-01', reportOverdueAt: null });
    expect(row?.history.at(-1)).toMatchObject({ action: 'INDICATOR_REPORTED', fromStatus: 'APPROVED', toStatus: 'APPROVED' });
    expect((await db.outbox.toArray())[0]).toMatchObject({ kind: PROJECT_INDICATOR_KIND, path: `/api/v1/companies/${COMPANY}/projects/${ID}/indicators` });

    await expect(reportProjectIndicator(contextOf(db, pm), COMPANY, ID, { id: REPORT_ID, date: '2026-11-19', value: 1 })).rejects.toMatchObject({ reason: 'invalid' });
    await expect(reportProjectIndicator(contextOf(db, employee), COMPANY, ID, { id: crypto.randomUUID(), date: '2026-11-19', value: 1 })).rejects.toMatchObject({ reason: 'notAllowed' });
    await expect(reportProjectIndicator(contextOf(db, pm), COMPANY, ID, { id: crypto.randomUUID(), date: '2026-11-21', value: 1 })).rejects.toMatchObject({
      fieldErrors: { date: 'future' },
    });
    expect(await db.outbox.count()).toBe(1);

    const fresh = openDb();
    await seed(fresh, PM_USER, { status: 'NEW' });
    await expect(reportProjectIndicator(contextOf(fresh, pm), COMPANY, ID, { id: REPORT_ID, date: '2026-11-19', value: 1 })).rejects.toMatchObject({ reason: 'wrongState' });
    expect(await fresh.outbox.count()).toBe(0);
  });

  it('saves the lead’s payments within the remuneration as the PATCH of the whole project', async () => {
    const db = openDb();
    const before = project({ status: 'CALCULATED', expectedEffect12mMinor: 800_000, remunerationMinor: 100_000 });
    await put(db, before);
    await expect(
      saveProjectPayments(contextOf(db, pm), COMPANY, ID, [
        { employeeId: PM_EMP, amountMinor: 60_000 },
        { employeeId: MATE_EMP, amountMinor: 40_001 },
      ]),
    ).rejects.toMatchObject({ reason: 'invalid', fieldErrors: { payments: 'exceedsRemuneration' } });
    await expect(saveProjectPayments(contextOf(db, pm), COMPANY, ID, [{ employeeId: '00000000-0000-4000-8000-000000000999', amountMinor: 1 }])).rejects.toMatchObject({
      fieldErrors: { payments: 'notInTeam' },
    });
    await expect(saveProjectPayments(contextOf(db, finance), COMPANY, ID, [])).rejects.toMatchObject({ reason: 'notAllowed' });
    await expectNothingStored(db, PM_USER, before);

    const payments = [
      { employeeId: PM_EMP, amountMinor: 50_000 },
      { employeeId: MATE_EMP, amountMinor: 50_000 },
    ];
    await saveProjectPayments(contextOf(db, pm), COMPANY, ID, payments);
    expect((await local(db, PM_USER))?.payments).toEqual(payments);
    const [row] = await db.outbox.toArray();
    expect(row).toMatchObject({ kind: PROJECT_PAYMENTS_KIND, method: 'PATCH', path: `/api/v1/companies/${COMPANY}/projects/${ID}` });
    expect(row?.body).toMatchObject({
      name: before.name,
      projectManagerEmployeeId: PM_EMP,
      team: [{ employeeId: MATE_EMP, role: 'Технолог' }],
      profitBasisPoints: 1250,
      payments,
    });
  });
});

describe('the server’s answer', () => {
  it('replaces the device’s copy, unless a later change of the project still waits', async () => {
    const db = openDb();
    await seed(db, PM_USER);
    await transitionProject(contextOf(db, pm), COMPANY, ID, { to: 'CALCULATING' });
    const [row] = await db.outbox.toArray();
    if (!row) throw new Error('no row');
    const server = project({ status: 'CALCULATING', updatedAt: '2026-11-20T10:00:01.000Z' });
    await storeDecidedProject({ db, row, data: server });
    expect((await local(db, PM_USER))?.updatedAt).toBe('2026-11-20T10:00:01.000Z');

    await writeWithOutbox(db, [db.projects], () =>
      enqueue(db, { ownerUserId: PM_USER, kind: PROJECT_TRANSITION_KIND, method: 'POST', path: row.path, body: {}, entityKey: row.entityKey }),
    );
    await storeDecidedProject({ db, row, data: { ...server, updatedAt: '2026-11-20T10:00:02.000Z' } });
    expect((await local(db, PM_USER))?.updatedAt).toBe('2026-11-20T10:00:01.000Z');
    expect(await db.staleRows.count()).toBe(1);
  });

  it('is labelled on /unsent with the project’s name and opens the project', async () => {
    const db = openDb();
    await seed(db, PM_USER);
    await transitionProject(contextOf(db, pm), COMPANY, ID, { to: 'CALCULATING' });
    const [row] = await db.outbox.toArray();
    if (!row) throw new Error('no row');
    expect(projectTransitionOutboxKind.labelValues(row, project())).toEqual({ name: 'Быстрая переналадка', hasName: 'yes', to: 'CALCULATING' });
    expect(projectTransitionOutboxKind.viewHref(row)).toBe(`/companies/${COMPANY}/projects/${ID}`);
    expect(projectOutboxKinds.map((kind) => kind.kind)).toEqual(['project.create', 'project.edit', 'project.transition', 'project.complete', 'project.indicator', 'project.payments']);
    expect(projectOutboxKinds.every((kind) => kind.pushable)).toBe(true);
  });
});
