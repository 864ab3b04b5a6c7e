import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Project } from '../../domain/project';
import { registryTotals, type Registry } from '../../domain/registry';
import { AppDatabase } from '../../lib/db/database';
import { createHttpClient } from '../../lib/http';
import { discard, entityKeyOf } from '../../lib/outbox/outbox';
import { createReplayer } from '../../lib/outbox/replayer';
import { employeeRow, projectRow, registryRow } from '../../../tests/fixtures/rows';
import {
  REGISTRY_APPROVE_KIND,
  REGISTRY_RETURN_KIND,
  REGISTRY_SEND_KIND,
  RegistryRefusedError,
  approveRegistry,
  readNextToDecide,
  readOpenRegistry,
  readRegistries,
  readRegistry,
  returnRegistry,
  sendRegistry,
  storeAnsweredRegistry,
  type RegistryActionContext,
} from './store';

const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const OTHER_COMPANY = '00000000-0000-4000-8000-0000000000c2';
const P1 = '00000000-0000-4000-8000-0000000000f1';
const P2 = '00000000-0000-4000-8000-0000000000f2';
const P3 = '00000000-0000-4000-8000-0000000000f3';
const P_NEW = '00000000-0000-4000-8000-0000000000f4';
const P_ELSEWHERE = '00000000-0000-4000-8000-0000000000f5';
const PM_EMP = '00000000-0000-4000-8000-0000000000e1';
const REG = '00000000-0000-4000-8000-0000000000b1';
const REG_OLD = '00000000-0000-4000-8000-0000000000b2';
const DM_USER = '00000000-0000-4000-8000-0000000000a1';
const OWNER_USER = '00000000-0000-4000-8000-0000000000a2';
const EMP_USER = '00000000-0000-4000-8000-0000000000a3';
const USERS = [DM_USER, OWNER_USER, EMP_USER];
const NOW = new Date('2026-11-20T10:00:00.000Z');

const opened: AppDatabase[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`registry-store-${Math.random()}`);
  opened.push(db);
  return db;
}

function approvedAt(at: string): Project['history'] {
  return [{ at, action: 'TRANSITION', fromStatus: 'CALCULATED', toStatus: 'APPROVED', byUserId: DM_USER, byName: 'Директоров Дмитрий', comment: null }];
}

function project(id: string, fields: Partial<Project> = {}): Project {
  return projectRow(id, {
    companyId: COMPANY,
    projectManagerEmployeeId: PM_EMP,
    status: 'APPROVED',
    estimatedCostsMinor: 10_000_000,
    expectedEffect12mMinor: 50_000_000,
    remunerationMinor: 5_000_000,
    history: approvedAt('2026-11-10T09:00:00.000Z'),
    ...fields,
  });
}

/** Each user's mirror holds the same rows (every member sees the open registry). */
async function seed(db: AppDatabase, projects: Project[], registries: Registry[] = []): Promise<void> {
  for (const ownerUserId of USERS) {
    await db.projects.bulkPut(projects.map((row) => ({ ...row, ownerUserId })));
    await db.registries.bulkPut(registries.map((row) => ({ ...row, ownerUserId })));
    await db.employees.put({ ...employeeRow(PM_EMP, { companyId: COMPANY, lastName: 'Петров', firstName: 'Пётр', middleName: 'Петрович' }), ownerUserId });
  }
}

/** Three projects of the open registry (two in roubles, approved in this order: P2 before P1; one in dollars), one NEW, one of another company. */
function openProjects(): Project[] {
  return [
    project(P1, { name: 'Быстрая переналадка', history: approvedAt('2026-11-12T09:00:00.000Z') }),
    project(P2, { name: 'Ящики с ячейками', history: approvedAt('2026-11-11T09:00:00.000Z'), estimatedCostsMinor: 2_000_000 }),
    project(P3, { name: 'Completed one', status: 'COMPLETED', currency: 'USD', estimatedCostsMinor: 30_000, expectedEffect12mMinor: 90_000, remunerationMinor: 9_000 }),
    project(P_NEW, { status: 'CALCULATED', history: [] }),
    project(P_ELSEWHERE, { companyId: OTHER_COMPANY }),
  ];
}

const director: RegistryActionContext['member'] = { userId: DM_USER, roles: ['DIRECTION_MANAGER'] };
const owner: RegistryActionContext['member'] = { userId: OWNER_USER, roles: ['OWNER'] };
const employee: RegistryActionContext['member'] = { userId: EMP_USER, roles: ['EMPLOYEE'] };

function contextOf(db: AppDatabase, member: RegistryActionContext['member'], name: string): RegistryActionContext {
  return { db, actor: { id: member.userId, fullName: name }, member, now: () => NOW, newId: () => REG };
}

/** A SENT registry of the company holding P1 and P2 (as the server sent it). */
function sentRegistry(fields: Partial<Registry> = {}): Registry {
  const items: Registry['items'] = [P2, P1].map((projectId) => ({
    projectId,
    name: projectId === P1 ? 'Быстрая переналадка' : 'Ящики с ячейками',
    departmentId: null,
    projectManagerName: 'Петров Пётр Петрович',
    currency: 'RUB',
    estimatedCostsMinor: projectId === P1 ? 10_000_000 : 2_000_000,
    expectedEffect12mMinor: 50_000_000,
    remunerationMinor: 5_000_000,
    finalCostMinor: null,
    adjustmentReason: null,
  }));
  return registryRow(REG, { companyId: COMPANY, number: 4, items, totals: registryTotals(items), sentByUserId: DM_USER, ...fields });
}

/** The mirror after the server's send of P1 and P2: the registry, and the projects carrying its id. */
async function seedSent(db: AppDatabase, fields: Partial<Registry> = {}): Promise<void> {
  const projects = openProjects().map((row) => ([P1, P2].includes(row.id) ? { ...row, registryId: REG } : row));
  await seed(db, projects, [sentRegistry(fields)]);
}

describe('the open registry on the device', () => {
  it('holds the approved and completed projects of the company not yet sent, in the order they were approved, with their totals per currency', async () => {
    const db = openDb();
    await seed(db, openProjects());
    const open = await readOpenRegistry(db, DM_USER, COMPANY);
    expect(open.items.map((item) => item.projectId)).toEqual([P3, P2, P1]);
    expect(open.items[1]).toEqual({
      projectId: P2,
      name: 'Ящики с ячейками',
      departmentId: null,
      projectManagerName: 'Петров Пётр Петрович',
      currency: 'RUB',
      estimatedCostsMinor: 2_000_000,
      expectedEffect12mMinor: 50_000_000,
      remunerationMinor: 5_000_000,
      finalCostMinor: null,
      adjustmentReason: null,
    });
    expect(open.totals).toEqual([
      { currency: 'RUB', projects: 2, estimatedCostsMinor: 12_000_000, finalCostsMinor: 12_000_000, expectedEffect12mMinor: 100_000_000, remunerationMinor: 10_000_000 },
      { currency: 'USD', projects: 1, estimatedCostsMinor: 30_000, finalCostsMinor: 30_000, expectedEffect12mMinor: 90_000, remunerationMinor: 9_000 },
    ]);
  });

  it('leaves out the projects a SENT registry holds, even when a pull wrote their registryId back to null while the send waited', async () => {
    const db = openDb();
    await seedSent(db);
    expect((await readOpenRegistry(db, DM_USER, COMPANY)).items.map((item) => item.projectId)).toEqual([P3]);
    await db.projects.put({ ...project(P1), ownerUserId: DM_USER });
    expect((await readOpenRegistry(db, DM_USER, COMPANY)).items.map((item) => item.projectId)).toEqual([P3]);
  });

  it('shows again the projects of a RETURNED registry, even while they still carry its id', async () => {
    const db = openDb();
    await seedSent(db, { status: 'RETURNED', comment: 'Проверьте затраты' });
    expect((await readOpenRegistry(db, DM_USER, COMPANY)).items.map((item) => item.projectId)).toEqual([P3, P2, P1]);
  });
});

describe('sending the open registry on the device', () => {
  it('stores a local SENT registry (number 0) with the snapshot, sets the projects\' registry and queues the send, in one transaction', async () => {
    const db = openDb();
    await seed(db, openProjects());
    const afterWrite = vi.fn();
    const transaction = vi.spyOn(db, 'transaction');
    const sent = await sendRegistry({ ...contextOf(db, director, 'Директоров Дмитрий'), afterWrite }, COMPANY, [P1, P2, P3]);

    expect(transaction).toHaveBeenCalledOnce();
    expect(afterWrite).toHaveBeenCalledOnce();
    const open = await readOpenRegistry(db, EMP_USER, COMPANY);
    expect(sent).toMatchObject({
      id: REG,
      companyId: COMPANY,
      number: 0,
      status: 'SENT',
      sentByUserId: DM_USER,
      sentByName: 'Директоров Дмитрий',
      sentAt: NOW.toISOString(),
      decidedAt: null,
      items: open.items,
      totals: open.totals,
      history: [{ at: NOW.toISOString(), action: 'SEND', fromStatus: 'OPEN', toStatus: 'SENT', byUserId: DM_USER, byName: 'Директоров Дмитрий', comment: null }],
    });
    expect(await db.registries.get([DM_USER, REG])).toEqual({ ...sent, ownerUserId: DM_USER });
    for (const id of [P1, P2, P3]) expect((await db.projects.get([DM_USER, id]))?.registryId).toBe(REG);
    expect((await db.projects.get([DM_USER, P_NEW]))?.registryId).toBeNull();
    expect((await readOpenRegistry(db, DM_USER, COMPANY)).items).toEqual([]);
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({
        kind: REGISTRY_SEND_KIND,
        method: 'POST',
        path: `/api/v1/companies/${COMPANY}/registry/send`,
        body: { id: REG, projectIds: [P3, P2, P1] },
        entityKey: entityKeyOf('registries', REG),
        ownerUserId: DM_USER,
        status: 'pending',
      }),
    ]);
    expect(await readRegistries(db, DM_USER, COMPANY)).toEqual([{ registry: { ...sent, ownerUserId: DM_USER }, unsent: 'pending' }]);
  });

  it('refuses a role that may not send, an empty registry and a list that no longer matches the open registry, storing nothing', async () => {
    const db = openDb();
    await seed(db, openProjects());
    await expect(sendRegistry(contextOf(db, employee, 'Рабочий Роман'), COMPANY, [P1, P2, P3])).rejects.toMatchObject({ reason: 'notAllowed' });
    await expect(sendRegistry(contextOf(db, director, 'Д'), COMPANY, [])).rejects.toMatchObject({ reason: 'empty' });
    await expect(sendRegistry(contextOf(db, director, 'Д'), COMPANY, [P1, P2])).rejects.toMatchObject({ reason: 'changed' });
    await expect(sendRegistry(contextOf(db, director, 'Д'), COMPANY, [P1, P2, P3, P_NEW])).rejects.toBeInstanceOf(RegistryRefusedError);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.registries.count()).toBe(0);
    expect((await readOpenRegistry(db, DM_USER, COMPANY)).items).toHaveLength(3);
  });

  it('lets the financial director send too', async () => {
    const db = openDb();
    await seed(db, openProjects());
    const member = { userId: DM_USER, roles: ['FINANCIAL_DIRECTOR'] };
    await expect(sendRegistry(contextOf(db, member, 'Финансов Фёдор'), COMPANY, [P1, P2, P3])).resolves.toMatchObject({ status: 'SENT' });
  });
});

describe("the owner's decisions on the device", () => {
  it('approves with the adjusted final costs written into the items, the totals recomputed and the outbox row, in one transaction', async () => {
    const db = openDb();
    await seedSent(db);
    const transaction = vi.spyOn(db, 'transaction');
    const approved = await approveRegistry(contextOf(db, owner, 'Владельцев Олег'), COMPANY, REG, {
      adjustments: [{ projectId: P1, finalCostMinor: 8_000_000, reason: '  Скидка поставщика  ' }],
      comment: '  Согласовано ',
    });
    expect(transaction).toHaveBeenCalledOnce();
    expect(approved).toMatchObject({
      status: 'APPROVED',
      decidedByUserId: OWNER_USER,
      decidedByName: 'Владельцев Олег',
      decidedAt: NOW.toISOString(),
      comment: 'Согласовано',
      updatedAt: NOW.toISOString(),
    });
    expect(approved.items.find((item) => item.projectId === P1)).toMatchObject({ finalCostMinor: 8_000_000, adjustmentReason: 'Скидка поставщика' });
    expect(approved.items.find((item) => item.projectId === P2)).toMatchObject({ finalCostMinor: null, adjustmentReason: null });
    expect(approved.totals).toEqual([{ currency: 'RUB', projects: 2, estimatedCostsMinor: 12_000_000, finalCostsMinor: 10_000_000, expectedEffect12mMinor: 100_000_000, remunerationMinor: 10_000_000 }]);
    expect(approved.history.at(-1)).toEqual({ at: NOW.toISOString(), action: 'APPROVE', fromStatus: 'SENT', toStatus: 'APPROVED', byUserId: OWNER_USER, byName: 'Владельцев Олег', comment: 'Согласовано' });
    expect(await db.registries.get([OWNER_USER, REG])).toEqual({ ...approved, ownerUserId: OWNER_USER });
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({
        kind: REGISTRY_APPROVE_KIND,
        path: `/api/v1/companies/${COMPANY}/registry/${REG}/approve`,
        body: { adjustments: [{ projectId: P1, finalCostMinor: 8_000_000, reason: 'Скидка поставщика' }], comment: 'Согласовано' },
        entityKey: entityKeyOf('registries', REG),
        ownerUserId: OWNER_USER,
      }),
    ]);
  });

  it('refuses whoever is not the owner, a decided registry, an adjustment of a project the registry lacks and one without a reason', async () => {
    const db = openDb();
    await seedSent(db);
    const ctx = contextOf(db, owner, 'Владельцев Олег');
    await expect(approveRegistry(contextOf(db, director, 'Д'), COMPANY, REG, { adjustments: [] })).rejects.toMatchObject({ reason: 'notAllowed' });
    await expect(approveRegistry(ctx, COMPANY, REG, { adjustments: [{ projectId: P3, finalCostMinor: 1, reason: 'x' }] })).rejects.toMatchObject({
      reason: 'invalid',
      fieldErrors: { 'adjustments.0.projectId': 'notInRegistry' },
    });
    await expect(approveRegistry(ctx, COMPANY, REG, { adjustments: [{ projectId: P1, finalCostMinor: 1, reason: '   ' }] })).rejects.toMatchObject({
      reason: 'invalid',
      fieldErrors: { 'adjustments.0.reason': 'required' },
    });
    await expect(approveRegistry(ctx, OTHER_COMPANY, REG, { adjustments: [] })).rejects.toMatchObject({ reason: 'missing' });
    expect(await db.outbox.count()).toBe(0);
    expect((await db.registries.get([OWNER_USER, REG]))?.status).toBe('SENT');

    await approveRegistry(ctx, COMPANY, REG, { adjustments: [] });
    await expect(returnRegistry(ctx, COMPANY, REG, { comment: 'Поздно' })).rejects.toMatchObject({ reason: 'wrongState', status: 'APPROVED' });
    expect(await db.outbox.count()).toBe(1);
  });

  it('returns with the comment: RETURNED, its projects back in the open registry, the outbox row', async () => {
    const db = openDb();
    await seedSent(db);
    const ctx = contextOf(db, owner, 'Владельцев Олег');
    await expect(returnRegistry(ctx, COMPANY, REG, { comment: '  ' })).rejects.toMatchObject({ reason: 'invalid', fieldErrors: { comment: 'required' } });
    expect(await db.outbox.count()).toBe(0);

    const returned = await returnRegistry(ctx, COMPANY, REG, { comment: ' Пересчитайте затраты ' });
    expect(returned).toMatchObject({ status: 'RETURNED', comment: 'Пересчитайте затраты', decidedByName: 'Владельцев Олег' });
    expect((await db.projects.get([OWNER_USER, P1]))?.registryId).toBeNull();
    expect((await db.projects.get([OWNER_USER, P2]))?.registryId).toBeNull();
    // Only the owner's own mirror changes.
    expect((await db.projects.get([DM_USER, P1]))?.registryId).toBe(REG);
    expect((await readOpenRegistry(db, OWNER_USER, COMPANY)).items.map((item) => item.projectId)).toEqual([P3, P2, P1]);
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({ kind: REGISTRY_RETURN_KIND, path: `/api/v1/companies/${COMPANY}/registry/${REG}/return`, body: { comment: 'Пересчитайте затраты' } }),
    ]);
  });

  it('names the oldest SENT registry as the next to decide, numbered ones first', async () => {
    const db = openDb();
    await seed(db, [], [sentRegistry(), registryRow(REG_OLD, { companyId: COMPANY, number: 2 }), registryRow('r-approved', { companyId: COMPANY, number: 1, status: 'APPROVED' })]);
    expect((await readNextToDecide(db, OWNER_USER, COMPANY))?.registry.id).toBe(REG_OLD);
    expect((await readRegistries(db, OWNER_USER, COMPANY)).map((view) => view.registry.number)).toEqual([4, 2, 1]);
    expect(await readRegistry(db, OWNER_USER, OTHER_COMPANY, REG)).toBeNull();
  });
});

function replayerOf(db: AppDatabase, ownerUserId: string, respond: () => Response) {
  const fetch = vi.fn<typeof globalThis.fetch>(() => Promise.resolve(respond()));
  const replayer = createReplayer({
    db,
    http: createHttpClient({
      prefix: '/main-service',
      fetch,
      tokens: { getAccess: () => 'token', getRefresh: () => null, set: () => undefined, clear: () => undefined },
      getLocale: () => 'en',
      onAuthFailure: () => undefined,
    }),
    getOwnerUserId: () => ownerUserId,
    clock: { now: () => NOW.getTime() },
    random: () => 0,
    locks: null,
    handlers: { [REGISTRY_SEND_KIND]: storeAnsweredRegistry, [REGISTRY_APPROVE_KIND]: storeAnsweredRegistry, [REGISTRY_RETURN_KIND]: storeAnsweredRegistry },
  });
  return { replayer, fetch };
}

describe("the server's answer", () => {
  it('replaces the local registry with the numbered one the server answered', async () => {
    const db = openDb();
    await seed(db, openProjects());
    await sendRegistry(contextOf(db, director, 'Директоров Дмитрий'), COMPANY, [P1, P2, P3]);
    const answered = { ...sentRegistry(), number: 7 };
    const { replayer, fetch } = replayerOf(db, DM_USER, () => new Response(JSON.stringify({ data: answered, message: 'Sent' }), { status: 201 }));
    expect((await replayer.drain()).sent).toBe(1);
    expect(fetch).toHaveBeenCalledOnce();
    expect(await db.registries.get([DM_USER, REG])).toEqual({ ...answered, ownerUserId: DM_USER });
    expect(await db.outbox.count()).toBe(0);
    expect(await readRegistry(db, DM_USER, COMPANY, REG)).toEqual({ registry: { ...answered, ownerUserId: DM_USER }, unsent: null });
  });

  it('keeps the device copy while a later change of the registry waits, and fetches an answer that fails its struct again', async () => {
    const db = openDb();
    await seedSent(db);
    const ctx = contextOf(db, owner, 'Владельцев Олег');
    await approveRegistry(ctx, COMPANY, REG, { adjustments: [] });
    const [row] = await db.outbox.toArray();
    if (!row) throw new Error('no row');
    // A later change of the same registry still waits: the device's copy (already showing it) stays.
    await storeAnsweredRegistry({ db, row: { ...row, seq: row.seq + 100 }, data: sentRegistry({ number: 9 }) });
    expect((await db.registries.get([OWNER_USER, REG]))?.status).toBe('APPROVED');
    expect(await db.staleRows.count()).toBe(1);

    await db.staleRows.clear();
    await storeAnsweredRegistry({ db, row, data: { id: REG } });
    expect((await db.registries.get([OWNER_USER, REG]))?.status).toBe('APPROVED');
    expect(await db.staleRows.count()).toBe(1);
  });

  it('parks a refused send (409) as a conflict: the local registry stays, waiting on Unsent; discarded and gone from the device, its projects are open again', async () => {
    const db = openDb();
    await seed(db, openProjects());
    await sendRegistry(contextOf(db, director, 'Директоров Дмитрий'), COMPANY, [P1, P2, P3]);
    const { replayer } = replayerOf(
      db,
      DM_USER,
      () => new Response(JSON.stringify({ message: 'The project “Быстрая переналадка” is already in registry No. 3.' }), { status: 409 }),
    );
    expect((await replayer.drain()).parked).toBe(1);
    const [row] = await db.outbox.toArray();
    expect(row).toMatchObject({ status: 'conflict', lastError: expect.objectContaining({ status: 409 }) });
    expect(await readRegistries(db, DM_USER, COMPANY)).toEqual([expect.objectContaining({ unsent: 'conflict' })]);
    expect((await readOpenRegistry(db, DM_USER, COMPANY)).items).toEqual([]);

    // The user discards it on /unsent; the refetch finds no such registry on the server and removes it.
    await discard(db, row?.id ?? '');
    await db.registries.delete([DM_USER, REG]);
    expect((await readOpenRegistry(db, DM_USER, COMPANY)).items.map((item) => item.projectId)).toEqual([P3, P2, P1]);
  });
});
