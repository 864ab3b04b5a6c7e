// The registry (docs/api.md, "Registry"): the open registry, sending it to the owner, the owner's approval with
// adjusted final costs or return, who may do what, another tenant's ids, replays, push batches, the pull, and the
// immutability of an approved registry down to the database.

import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../../src/domain/project';
import { Registry, registryTotals, type CurrencyTotals, type RegistryItem } from '../../../src/domain/registry';
import { SyncPage } from '../../../src/domain/suggestion';
import { createManualClock } from '../../clock';
import { api, json, testAppPerFile } from '../../test-support';
import { MANAGER_NAME, nameOf, projectAt, registryCompany, type Login, type ProjectFigures, type RegistryCompany } from './fixtures';

// 07:00 UTC is 10:00 in Moscow, the company's time zone (the default), in which the conflicts name the time.
const START = new Date('2026-11-24T07:00:00.000Z');
const clock = createManualClock(START);
const t = testAppPerFile({ clock });

let c: RegistryCompany;
beforeAll(async () => {
  c = await registryCompany(t);
});

interface Answer<T = Registry> {
  data: T;
  message: string;
  errors?: Record<string, string>;
}

interface Overview {
  open: { items: RegistryItem[]; totals: CurrencyTotals[] };
  registries: Registry[];
}

const headers = (who: Login, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${who.access}`, Language: 'en', ...extra });
const registryPath = (rest = '', companyId = c.acme.companyId) => api(`/companies/${companyId}/registry${rest}`);

function send(who: Login, body: Record<string, unknown>, extra: Record<string, string> = {}, companyId?: string) {
  return t.app.inject({ method: 'POST', url: registryPath('/send', companyId), headers: headers(who, extra), payload: body });
}

function decide(who: Login, id: string, action: 'approve' | 'return', body: Record<string, unknown>, extra: Record<string, string> = {}, companyId?: string) {
  return t.app.inject({ method: 'POST', url: registryPath(`/${id}/${action}`, companyId), headers: headers(who, extra), payload: body });
}

async function overview(who: Login = c.employee): Promise<Overview> {
  const res = await t.app.inject({ method: 'GET', url: registryPath(), headers: headers(who) });
  expect(res.statusCode, res.body).toBe(200);
  return json<Answer<Overview>>(res).data;
}

function answered(res: LightMyRequestResponse, status = 200): Answer {
  expect(res.statusCode, res.body).toBe(status);
  const body = json<Answer>(res);
  expect(Registry.is(body.data), res.body).toBe(true);
  return body;
}

/** A SENT registry of new approved projects (one per figures), sent by `who`. */
async function sentRegistry(figures: ProjectFigures[] = [{}], who: Login = c.direction): Promise<{ registry: Registry; projects: Project[] }> {
  const projects: Project[] = [];
  for (const f of figures) projects.push(await projectAt(t, c, 'APPROVED', f));
  const registry = answered(await send(who, { id: randomUUID(), projectIds: projects.map((p) => p.id) }), 201).data;
  return { registry, projects };
}

async function notificationsOf(registryId: string): Promise<{ user_id: string; kind: string; params: Record<string, string | null> }[]> {
  return t.db.query('SELECT user_id, kind, params FROM notifications WHERE registry_id = $1 ORDER BY created_at, kind, user_id', [registryId]);
}

async function registryIdOf(projectId: string): Promise<string | null> {
  return (await t.db.one<{ registry_id: string | null }>('SELECT registry_id FROM projects WHERE id = $1', [projectId]))?.registry_id ?? null;
}

const openIds = async () => (await overview()).open.items.map((item) => item.projectId);
const sorted = (values: string[]) => [...values].sort();

describe('GET /companies/{companyId}/registry', () => {
  it('lists the approved and completed projects not yet sent, in the order of approval, with totals per currency, to any member', async () => {
    const before = new Set(await openIds());
    clock.set(new Date('2026-11-24T07:01:00.000Z'));
    const rub = await projectAt(t, c, 'APPROVED', { name: 'Ящик для инструмента', estimatedCostsMinor: 1_000_000, expectedEffect12mMinor: 30_000_000 });
    clock.set(new Date('2026-11-24T07:02:00.000Z'));
    const usd = await projectAt(t, c, 'COMPLETED', { name: 'Dollar line', currency: 'USD', estimatedCostsMinor: 200_000, expectedEffect12mMinor: 900_000, profitBasisPoints: 500 });
    const calculated = await projectAt(t, c, 'CALCULATED', { name: 'Ещё не утверждён' });
    clock.set(START);

    const { open } = await overview(c.employee);
    const fresh = open.items.filter((item) => !before.has(item.projectId));
    expect(fresh.map((item) => item.projectId)).toEqual([rub.id, usd.id]);
    expect(open.items.map((item) => item.projectId)).not.toContain(calculated.id);
    expect(fresh[0]).toEqual({
      projectId: rub.id,
      name: 'Ящик для инструмента',
      departmentId: c.acme.departments.A,
      projectManagerName: MANAGER_NAME,
      currency: 'RUB',
      estimatedCostsMinor: 1_000_000,
      expectedEffect12mMinor: 30_000_000,
      remunerationMinor: 3_000_000,
      finalCostMinor: null,
      adjustmentReason: null,
    });
    expect(fresh[1]).toMatchObject({ currency: 'USD', estimatedCostsMinor: 200_000, expectedEffect12mMinor: 900_000, remunerationMinor: 45_000 });
    expect(open.totals).toEqual(registryTotals(open.items));
    expect(open.totals.map((total) => total.currency)).toEqual(['RUB', 'USD']);
  });

  it("answers 404 to a stranger and never shows another company's projects", async () => {
    const stranger = await t.app.inject({ method: 'GET', url: registryPath(), headers: headers(c.outsider) });
    expect(stranger.statusCode).toBe(404);
    const own = await t.app.inject({ method: 'GET', url: registryPath('', c.rival.companyId), headers: headers(c.outsider) });
    expect(json<Answer<Overview>>(own).data).toEqual({ open: { items: [], totals: [] }, registries: [] });
  });
});

describe('POST /companies/{companyId}/registry/send', () => {
  it('makes a SENT registry of snapshots, numbered per company, takes its projects out of the open registry and tells every owner', async () => {
    const a = await projectAt(t, c, 'APPROVED', { name: 'Проект А', estimatedCostsMinor: 4_000_000, expectedEffect12mMinor: 50_000_000 });
    const b = await projectAt(t, c, 'APPROVED', { name: 'Проект Б', currency: 'AUD', estimatedCostsMinor: 100, expectedEffect12mMinor: 1_000 });
    const numberBefore = (await overview()).registries[0]?.number ?? 0;
    const id = randomUUID();
    const res = await send(c.direction, { id: id.toUpperCase(), projectIds: [b.id, a.id] }, { Language: 'ru' });
    const body = answered(res, 201);
    expect(body.message).toBe(`Реестр № ${numberBefore + 1} отправлен собственнику.`);
    const registry = body.data;
    expect(registry).toMatchObject({
      id,
      companyId: c.acme.companyId,
      number: numberBefore + 1,
      status: 'SENT',
      sentByUserId: c.direction.id,
      sentByName: nameOf('Направленцев'),
      sentAt: START.toISOString(),
      decidedByUserId: null,
      decidedByName: null,
      decidedAt: null,
      comment: null,
    });
    // In the open registry's order (when approved, then by name), whatever order the sender named them in.
    expect(registry.items.map((item) => item.projectId)).toEqual([a.id, b.id]);
    expect(registry.items[0]).toEqual({
      projectId: a.id,
      name: 'Проект А',
      departmentId: c.acme.departments.A,
      projectManagerName: MANAGER_NAME,
      currency: 'RUB',
      estimatedCostsMinor: 4_000_000,
      expectedEffect12mMinor: 50_000_000,
      remunerationMinor: 5_000_000,
      finalCostMinor: null,
      adjustmentReason: null,
    });
    expect(registry.totals).toEqual([
      { currency: 'RUB', projects: 1, estimatedCostsMinor: 4_000_000, finalCostsMinor: 4_000_000, expectedEffect12mMinor: 50_000_000, remunerationMinor: 5_000_000 },
      { currency: 'AUD', projects: 1, estimatedCostsMinor: 100, finalCostsMinor: 100, expectedEffect12mMinor: 1_000, remunerationMinor: 100 },
    ]);
    expect(registry.history).toEqual([{ at: START.toISOString(), action: 'SEND', fromStatus: 'OPEN', toStatus: 'SENT', byUserId: c.direction.id, byName: nameOf('Направленцев'), comment: null }]);

    expect(await registryIdOf(a.id)).toBe(id);
    expect(await registryIdOf(b.id)).toBe(id);
    const after = await overview();
    expect(after.open.items.map((item) => item.projectId)).not.toContain(a.id);
    expect(after.registries[0]).toEqual(registry);
    const read = await t.app.inject({ method: 'GET', url: registryPath(`/${id}`), headers: headers(c.employee) });
    expect(answered(read).data).toEqual(registry);

    const params = { number: String(registry.number), byName: nameOf('Направленцев'), comment: null };
    expect(await notificationsOf(id)).toEqual(
      sorted([c.owner.id, c.owner2.id]).map((userId) => ({ user_id: userId, kind: 'REGISTRY_SENT', params })),
    );

    // The next one, by the financial director, takes the next number.
    const next = await sentRegistry([{}], c.findir);
    expect(next.registry.number).toBe(registry.number + 1);
    expect(next.registry.sentByName).toBe(nameOf('Финансов'));
  });

  it('keeps the snapshot when the project moves on: a completed project keeps its sent figures', async () => {
    const { registry, projects } = await sentRegistry([{ estimatedCostsMinor: 7_000_000 }]);
    const [project] = projects;
    const done = await t.app.inject({
      method: 'POST',
      url: api(`/companies/${c.acme.companyId}/projects/${project!.id}/complete`),
      headers: headers(c.pm),
      payload: { actualCompletionDate: '2026-11-20', actualEffect12mMinor: 1 },
    });
    expect(done.statusCode, done.body).toBe(200);
    const read = answered(await t.app.inject({ method: 'GET', url: registryPath(`/${registry.id}`), headers: headers(c.owner) })).data;
    expect(read.items).toEqual(registry.items);
    expect(json<Answer<Project>>(done).data.registryId).toBe(registry.id);
  });

  it('lets only the direction manager and the financial director send, refusing the others before the body is read', async () => {
    const p = await projectAt(t, c, 'APPROVED');
    for (const who of [c.owner, c.ceo, c.employee, c.finspec, c.head]) {
      expect((await send(who, { id: randomUUID(), projectIds: [p.id] })).statusCode, who.email).toBe(403);
      expect((await send(who, { nonsense: true })).statusCode, who.email).toBe(403);
    }
    // A stranger to the company: 404, as for a missing company.
    expect((await send(c.outsider, { id: randomUUID(), projectIds: [p.id] })).statusCode).toBe(404);
    expect((await send(c.direction, { id: randomUUID(), projectIds: [p.id] }, {}, c.rival.companyId)).statusCode).toBe(404);
    expect(await registryIdOf(p.id)).toBeNull();
    expect(await openIds()).toContain(p.id);
  });

  it('refuses per field, in the request language, a project not in the open registry, and nothing is sent', async () => {
    const approved = await projectAt(t, c, 'APPROVED');
    const calculated = await projectAt(t, c, 'CALCULATED');
    const rivalProject = await t.db.one<{ id: string }>(
      `INSERT INTO projects (company_id, id, name, problem, type, completion_date, reporting_frequency, post_monitoring_periodicity, project_manager_employee_id,
         currency, profit_basis_points, effect_repeatability, status, estimated_costs_minor, expected_effect_12m_minor, author_name, history)
       SELECT $1, $2, 'Чужой', 'p', 'ORGANIZATIONAL', '2027-01-01', 'MONTHLY', 'QUARTERLY', e.id, 'RUB', 1000, 'RECURRING', 'APPROVED', 1, 1, 'X', '[]'
       FROM employees e WHERE e.company_id = $1 LIMIT 1 RETURNING id`,
      [c.rival.companyId, randomUUID()],
    );
    const id = randomUUID();
    const res = await send(c.direction, { id, projectIds: [approved.id, calculated.id, rivalProject!.id, randomUUID()] });
    expect(res.statusCode, res.body).toBe(400);
    const notInOpen = 'This project is not in the open registry: it is not approved or not of this company.';
    expect(json<Answer>(res).errors).toEqual({ 'projectIds.1': notInOpen, 'projectIds.2': notInOpen, 'projectIds.3': notInOpen });
    const ru = await send(c.direction, { id, projectIds: [calculated.id] }, { Language: 'ru' });
    expect(json<Answer>(ru).errors).toEqual({ 'projectIds.0': 'Этого проекта нет в открытом реестре: он не утверждён или не относится к этой компании.' });
    expect(await registryIdOf(approved.id)).toBeNull();
    expect(await t.db.one('SELECT id FROM registries WHERE id = $1', [id])).toBeNull();

    const shapes: [Record<string, unknown>, Record<string, string>][] = [
      [{ id, projectIds: [approved.id, approved.id.toUpperCase()] }, { projectIds: 'The same item is named twice.' }],
      [{ id: 'nope', projectIds: [approved.id] }, { id: 'id is not valid.' }],
      [{ id, projectIds: ['nope'] }, { 'projectIds.0': 'projectIds.0 is not valid.' }],
      [{ id }, { projectIds: 'Fill in this field.' }],
      // Not ids at all, beside one that fails its refinement: field errors, not a throw inside the 'duplicate' check.
      [{ id, projectIds: [0, ''] }, { 'projectIds.0': 'projectIds.0 is not valid.', 'projectIds.1': 'projectIds.1 is not valid.' }],
    ];
    for (const [body, errors] of shapes) {
      const refused = await send(c.direction, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(json<Answer>(refused).errors).toEqual(errors);
    }
    const empty = await send(c.direction, { id, projectIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(json<Answer>(empty).errors).toEqual({ projectIds: 'Fill in this field.' });
  });

  it('answers 409 naming the registry, its sender and when, for a project sent meanwhile, and 409 for a registry id taken', async () => {
    clock.set(new Date('2026-11-24T07:00:00.000Z'));
    const { registry, projects } = await sentRegistry([{ name: 'Уже отправленный' }]);
    clock.advance(3600_000);
    const other = await projectAt(t, c, 'APPROVED');
    const ids = [other.id, projects[0]!.id];
    const en = await send(c.findir, { id: randomUUID(), projectIds: ids });
    expect(en.statusCode).toBe(409);
    expect(json<Answer>(en).message).toBe(
      `The project “Уже отправленный” is already in registry No. ${registry.number}, sent by ${nameOf('Направленцев')} on 24.11.2026, 10:00 (Europe/Moscow, UTC+3).`,
    );
    const ru = await send(c.findir, { id: randomUUID(), projectIds: ids }, { Language: 'ru' });
    expect(json<Answer>(ru).message).toBe(
      `Проект «Уже отправленный» уже в реестре № ${registry.number}: его отправил(а) ${nameOf('Направленцев')}, 24.11.2026, 10:00 (Europe/Moscow, UTC+3).`,
    );
    // A conflict comes before the request's own faults.
    expect((await send(c.findir, { id: randomUUID(), projectIds: [randomUUID(), projects[0]!.id] })).statusCode).toBe(409);
    expect(await registryIdOf(other.id)).toBeNull();

    const taken = await send(c.direction, { id: registry.id, projectIds: [other.id] });
    expect(taken.statusCode).toBe(409);
    expect(json<Answer>(taken).message).toBe('A registry with this id already exists.');
    expect(await registryIdOf(other.id)).toBeNull();
    clock.set(START);
  });

  it('lets one of two concurrent sends of the same project through; the other is told where it went', async () => {
    const p = await projectAt(t, c, 'APPROVED');
    const [first, second] = await Promise.all([
      send(c.direction, { id: randomUUID(), projectIds: [p.id] }),
      send(c.findir, { id: randomUUID(), projectIds: [p.id] }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
    const winner = first.statusCode === 201 ? first : second;
    expect(await registryIdOf(p.id)).toBe(json<Answer>(winner).data.id);
    expect(await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM registries WHERE items @> $1::jsonb', [JSON.stringify([{ projectId: p.id }])])).toEqual({ n: 1 });
  });

  it('numbers concurrent sends of different projects without a gap or a repeat', async () => {
    const projects = await Promise.all([projectAt(t, c, 'APPROVED'), projectAt(t, c, 'APPROVED'), projectAt(t, c, 'APPROVED')]);
    const answers = await Promise.all(projects.map((p, i) => send(i % 2 ? c.findir : c.direction, { id: randomUUID(), projectIds: [p.id] })));
    const numbers = answers.map((res) => answered(res, 201).data.number).sort((x, y) => x - y);
    expect(numbers[1]).toBe(numbers[0]! + 1);
    expect(numbers[2]).toBe(numbers[0]! + 2);
  });
});

describe('POST /companies/{companyId}/registry/{registryId}/approve', () => {
  it('writes the adjusted final costs and their reasons into the items, recomputes the totals, and tells the sender', async () => {
    const { registry, projects } = await sentRegistry([
      { name: 'Первый', estimatedCostsMinor: 1_000_000, expectedEffect12mMinor: 20_000_000 },
      { name: 'Второй', estimatedCostsMinor: 2_000_000, expectedEffect12mMinor: 30_000_000 },
      { name: 'Третий', currency: 'USD', estimatedCostsMinor: 50_000, expectedEffect12mMinor: 700_000 },
    ]);
    const [first, second, third] = projects;
    clock.set(new Date('2026-11-25T12:15:00.000Z'));
    const body = {
      adjustments: [
        { projectId: first!.id.toUpperCase(), finalCostMinor: 1_500_000, reason: '  Подорожал металл  ' },
        { projectId: third!.id, finalCostMinor: 40_000, reason: 'Скидка поставщика' },
      ],
      comment: 'Согласовано',
    };
    const res = await decide(c.owner, registry.id, 'approve', body, { Language: 'ru' });
    const approved = answered(res);
    expect(approved.message).toBe(`Реестр № ${registry.number} утверждён.`);
    const byProject = new Map(approved.data.items.map((item) => [item.projectId, item]));
    expect(byProject.get(first!.id)).toMatchObject({ estimatedCostsMinor: 1_000_000, finalCostMinor: 1_500_000, adjustmentReason: 'Подорожал металл' });
    expect(byProject.get(second!.id)).toMatchObject({ estimatedCostsMinor: 2_000_000, finalCostMinor: null, adjustmentReason: null });
    expect(byProject.get(third!.id)).toMatchObject({ finalCostMinor: 40_000, adjustmentReason: 'Скидка поставщика' });
    expect(approved.data.totals).toEqual([
      { currency: 'RUB', projects: 2, estimatedCostsMinor: 3_000_000, finalCostsMinor: 3_500_000, expectedEffect12mMinor: 50_000_000, remunerationMinor: 5_000_000 },
      { currency: 'USD', projects: 1, estimatedCostsMinor: 50_000, finalCostsMinor: 40_000, expectedEffect12mMinor: 700_000, remunerationMinor: 70_000 },
    ]);
    expect(approved.data).toMatchObject({
      status: 'APPROVED',
      decidedByUserId: c.owner.id,
      decidedByName: nameOf('Хозяинов'),
      decidedAt: clock.now().toISOString(),
      comment: 'Согласовано',
    });
    expect(approved.data.history.map((entry) => [entry.action, entry.fromStatus, entry.toStatus, entry.byName, entry.comment])).toEqual([
      ['SEND', 'OPEN', 'SENT', nameOf('Направленцев'), null],
      ['APPROVE', 'SENT', 'APPROVED', nameOf('Хозяинов'), 'Согласовано'],
    ]);
    // The projects stay out of the open registry, held by the approved registry.
    expect(await registryIdOf(first!.id)).toBe(registry.id);
    expect((await notificationsOf(registry.id)).filter((n) => n.kind === 'REGISTRY_APPROVED')).toEqual([
      { user_id: c.direction.id, kind: 'REGISTRY_APPROVED', params: { number: String(registry.number), byName: nameOf('Хозяинов'), comment: 'Согласовано' } },
    ]);
    clock.set(START);
  });

  it('is final: approving or returning it again answers 409 naming who approved it and when, and the database refuses any change', async () => {
    const { registry } = await sentRegistry();
    clock.set(new Date('2026-11-24T07:00:00.000Z'));
    answered(await decide(c.owner, registry.id, 'approve', { adjustments: [] }));
    clock.advance(3600_000);
    const again = await decide(c.owner2, registry.id, 'approve', { adjustments: [] });
    expect(again.statusCode).toBe(409);
    expect(json<Answer>(again).message).toBe(`Registry No. ${registry.number} was already approved by ${nameOf('Хозяинов')} on 24.11.2026, 10:00 (Europe/Moscow, UTC+3).`);
    const back = await decide(c.owner2, registry.id, 'return', { comment: 'Передумал' }, { Language: 'ru' });
    expect(back.statusCode).toBe(409);
    expect(json<Answer>(back).message).toBe(`Реестр № ${registry.number} уже утверждён: ${nameOf('Хозяинов')}, 24.11.2026, 10:00 (Europe/Moscow, UTC+3).`);
    // The company moved to Vladivostok: the same conflict now names the time on its clock.
    await t.db.query(`UPDATE companies SET time_zone = 'Asia/Vladivostok' WHERE id = $1`, [c.acme.companyId]);
    try {
      const east = await decide(c.owner2, registry.id, 'approve', { adjustments: [] });
      expect(json<Answer>(east).message).toBe(`Registry No. ${registry.number} was already approved by ${nameOf('Хозяинов')} on 24.11.2026, 17:00 (Asia/Vladivostok, UTC+10).`);
    } finally {
      await t.db.query(`UPDATE companies SET time_zone = 'Europe/Moscow' WHERE id = $1`, [c.acme.companyId]);
    }
    const stored = answered(await t.app.inject({ method: 'GET', url: registryPath(`/${registry.id}`), headers: headers(c.owner) })).data;
    expect(stored.status).toBe('APPROVED');
    expect(stored.history).toHaveLength(2);

    await expect(t.db.query("UPDATE registries SET decision_comment = 'подмена' WHERE id = $1", [registry.id])).rejects.toThrow(/approved and cannot change/);
    await expect(t.db.query("UPDATE registries SET status = 'RETURNED' WHERE id = $1", [registry.id])).rejects.toThrow(/approved and cannot change/);
    expect((await t.db.one<{ decision_comment: string | null }>('SELECT decision_comment FROM registries WHERE id = $1', [registry.id]))?.decision_comment).toBeNull();
    clock.set(START);
  });

  it('lets only an owner decide; the others get 403 before the body is read', async () => {
    const { registry } = await sentRegistry();
    for (const who of [c.ceo, c.direction, c.findir, c.employee, c.head]) {
      expect((await decide(who, registry.id, 'approve', { adjustments: [] })).statusCode, who.email).toBe(403);
      expect((await decide(who, registry.id, 'return', { comment: 'Нет' })).statusCode, who.email).toBe(403);
      expect((await decide(who, registry.id, 'approve', { nonsense: 1 })).statusCode, who.email).toBe(403);
    }
    const stored = answered(await t.app.inject({ method: 'GET', url: registryPath(`/${registry.id}`), headers: headers(c.owner) })).data;
    expect(stored.status).toBe('SENT');
    // The second owner decides as well as the first.
    expect(answered(await decide(c.owner2, registry.id, 'approve', { adjustments: [] })).data.decidedByName).toBe(nameOf('Совладельцев'));
  });

  it('refuses per field: an adjustment of a project the registry lacks, a blank reason, a project adjusted twice, a negative cost', async () => {
    const { registry, projects } = await sentRegistry([{}]);
    const outside = await projectAt(t, c, 'APPROVED');
    const own = projects[0]!.id;
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ adjustments: [{ projectId: own, finalCostMinor: 1, reason: 'ok' }, { projectId: outside.id, finalCostMinor: 1, reason: 'ok' }] }, { 'adjustments.1.projectId': 'This project is not in this registry.' }],
      [{ adjustments: [{ projectId: own, finalCostMinor: 1, reason: '   ' }] }, { 'adjustments.0.reason': 'Fill in this field.' }],
      [{ adjustments: [{ projectId: own, finalCostMinor: 1, reason: 'a' }, { projectId: own.toUpperCase(), finalCostMinor: 2, reason: 'b' }] }, { adjustments: 'The same item is named twice.' }],
      [{ adjustments: [{ projectId: 0, finalCostMinor: 1, reason: 'a' }, { projectId: '', finalCostMinor: 1, reason: 'a' }] }, { 'adjustments.0.projectId': 'adjustments.0.projectId is not valid.', 'adjustments.1.projectId': 'adjustments.1.projectId is not valid.' }],
    ];
    for (const [body, errors] of cases) {
      const res = await decide(c.owner, registry.id, 'approve', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(json<Answer>(res).errors).toEqual(errors);
    }
    const ru = await decide(c.owner, registry.id, 'approve', { adjustments: [{ projectId: outside.id, finalCostMinor: 1, reason: 'ok' }] }, { Language: 'ru' });
    expect(json<Answer>(ru).errors).toEqual({ 'adjustments.0.projectId': 'Этого проекта нет в этом реестре.' });
    const negative = await decide(c.owner, registry.id, 'approve', { adjustments: [{ projectId: own, finalCostMinor: -1, reason: 'ok' }] });
    expect(negative.statusCode).toBe(400);
    expect(Object.keys(json<Answer>(negative).errors ?? {})).toEqual(['adjustments.0.finalCostMinor']);
    const stored = await t.db.one<{ status: string; history: unknown[] }>('SELECT status, history FROM registries WHERE id = $1', [registry.id]);
    expect(stored).toMatchObject({ status: 'SENT', history: [expect.anything()] });
  });

  it("answers 404 for another company's registry, a missing and a malformed id", async () => {
    const { registry } = await sentRegistry();
    expect((await decide(c.outsider, registry.id, 'approve', { adjustments: [] }, {}, c.rival.companyId)).statusCode).toBe(404);
    expect((await decide(c.outsider, registry.id, 'approve', { adjustments: [] })).statusCode).toBe(404);
    expect((await decide(c.outsider, registry.id, 'return', { comment: 'x' }, {}, c.rival.companyId)).statusCode).toBe(404);
    expect((await decide(c.owner, randomUUID(), 'approve', { adjustments: [] })).statusCode).toBe(404);
    expect((await decide(c.owner, 'nope', 'approve', { adjustments: [] })).statusCode).toBe(404);
    const read = (who: Login, id: string, companyId?: string) => t.app.inject({ method: 'GET', url: registryPath(`/${id}`, companyId), headers: headers(who) });
    expect((await read(c.outsider, registry.id, c.rival.companyId)).statusCode).toBe(404);
    expect((await read(c.outsider, registry.id)).statusCode).toBe(404);
    expect((await read(c.owner, randomUUID())).statusCode).toBe(404);
    expect((await read(c.owner, 'nope')).statusCode).toBe(404);
    expect((await read(c.employee, registry.id)).statusCode).toBe(200);
  });

  it('lets only one of two concurrent decisions through', async () => {
    const { registry } = await sentRegistry();
    const answers = await Promise.all([decide(c.owner, registry.id, 'approve', { adjustments: [] }), decide(c.owner2, registry.id, 'return', { comment: 'Нет' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });
});

describe('POST /companies/{companyId}/registry/{registryId}/return', () => {
  it('gives the projects back to the open registry with the comment kept; they can be sent again in a new registry', async () => {
    const { registry, projects } = await sentRegistry([{ name: 'Вернут' }, { name: 'Тоже вернут' }]);
    const ids = projects.map((p) => p.id);
    clock.set(new Date('2026-11-26T08:30:00.000Z'));
    const res = await decide(c.owner, registry.id, 'return', { comment: '  Пересчитайте второй проект  ' });
    const returned = answered(res);
    expect(returned.message).toBe(`Registry No. ${registry.number} has been returned; its projects are back in the open registry.`);
    expect(returned.data).toMatchObject({ status: 'RETURNED', decidedByUserId: c.owner.id, decidedAt: clock.now().toISOString(), comment: 'Пересчитайте второй проект' });
    expect(returned.data.items).toEqual(registry.items);
    expect(returned.data.history.at(-1)).toEqual({
      at: clock.now().toISOString(),
      action: 'RETURN',
      fromStatus: 'SENT',
      toStatus: 'RETURNED',
      byUserId: c.owner.id,
      byName: nameOf('Хозяинов'),
      comment: 'Пересчитайте второй проект',
    });
    for (const id of ids) expect(await registryIdOf(id)).toBeNull();
    expect(await openIds()).toEqual(expect.arrayContaining(ids));
    expect((await notificationsOf(registry.id)).filter((n) => n.kind === 'REGISTRY_RETURNED')).toEqual([
      { user_id: c.direction.id, kind: 'REGISTRY_RETURNED', params: { number: String(registry.number), byName: nameOf('Хозяинов'), comment: 'Пересчитайте второй проект' } },
    ]);

    // Decided: neither approved nor returned again.
    const late = await decide(c.owner2, registry.id, 'approve', { adjustments: [] }, { Language: 'ru' });
    expect(late.statusCode).toBe(409);
    expect(json<Answer>(late).message).toBe(`Реестр № ${registry.number} уже возвращён: ${nameOf('Хозяинов')}, 26.11.2026, 11:30 (Europe/Moscow, UTC+3).`);
    const lateEn = await decide(c.owner2, registry.id, 'return', { comment: 'x' });
    expect(json<Answer>(lateEn).message).toBe(`Registry No. ${registry.number} was already returned by ${nameOf('Хозяинов')} on 26.11.2026, 11:30 (Europe/Moscow, UTC+3).`);

    // Sent again, by the financial director this time, in a new registry.
    const again = answered(await send(c.findir, { id: randomUUID(), projectIds: ids }), 201).data;
    expect(again.number).toBeGreaterThan(registry.number);
    expect(again.items.map((item) => item.projectId)).toEqual(ids);
    for (const id of ids) expect(await registryIdOf(id)).toBe(again.id);
    // The returned registry keeps what it held.
    const old = answered(await t.app.inject({ method: 'GET', url: registryPath(`/${registry.id}`), headers: headers(c.owner) })).data;
    expect(old).toMatchObject({ status: 'RETURNED', items: registry.items });
    clock.set(START);
  });

  it('needs a comment', async () => {
    const { registry } = await sentRegistry();
    for (const body of [{}, { comment: '   ' }, { comment: null }]) {
      const res = await decide(c.owner, registry.id, 'return', body);
      expect(res.statusCode).toBe(400);
      expect(json<Answer>(res).errors).toEqual({ comment: 'Fill in this field.' });
    }
    const ru = await decide(c.owner, registry.id, 'return', {}, { Language: 'ru' });
    expect(json<Answer>(ru).errors).toEqual({ comment: 'Заполните это поле.' });
  });
});

describe('figures past 2^53 minor units', () => {
  it('refuses a send or an approval whose totals would pass them instead of rounding, and the open registry still answers', async () => {
    const big = 2 ** 52;
    const x = await projectAt(t, c, 'APPROVED', { currency: 'AUD', estimatedCostsMinor: big, expectedEffect12mMinor: 1 });
    const y = await projectAt(t, c, 'APPROVED', { currency: 'AUD', estimatedCostsMinor: big, expectedEffect12mMinor: 1 });
    const { open } = await overview();
    expect(open.totals.find((total) => total.currency === 'AUD')).toMatchObject({ estimatedCostsMinor: Number.MAX_SAFE_INTEGER, finalCostsMinor: Number.MAX_SAFE_INTEGER });
    const refused = await send(c.direction, { id: randomUUID(), projectIds: [x.id, y.id] });
    expect(refused.statusCode).toBe(400);
    expect(json<Answer>(refused).errors).toEqual({ projectIds: 'The amount is too large.' });
    expect(await registryIdOf(x.id)).toBeNull();
    // One at a time they go.
    answered(await send(c.direction, { id: randomUUID(), projectIds: [x.id] }), 201);
    answered(await send(c.direction, { id: randomUUID(), projectIds: [y.id] }), 201);

    const { registry } = await sentRegistry([{}, {}]);
    const adjustments = registry.items.map((item) => ({ projectId: item.projectId, finalCostMinor: Number.MAX_SAFE_INTEGER, reason: 'Ошибка ввода' }));
    const tooMuch = await decide(c.owner, registry.id, 'approve', { adjustments });
    expect(tooMuch.statusCode).toBe(400);
    expect(json<Answer>(tooMuch).errors).toEqual({ adjustments: 'The amount is too large.' });
    expect((await t.db.one<{ status: string }>('SELECT status FROM registries WHERE id = $1', [registry.id]))?.status).toBe('SENT');
  });
});

describe('fuzzed bodies', () => {
  it('never reach a 500, with real ids mixed in', async () => {
    const { registry, projects } = await sentRegistry([{}]);
    const spare = await projectAt(t, c, 'APPROVED');
    const ids = [registry.id, projects[0]!.id, spare.id, randomUUID(), 'nope', registry.id.toUpperCase()];
    const value = fc.oneof(
      fc.constantFrom(...ids),
      fc.constantFrom(0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, '', '   ', '\u0000', 'x'.repeat(3000), null, true),
      fc.string({ maxLength: 20 }),
      fc.integer(),
    );
    const adjustment = fc.record({ projectId: value, finalCostMinor: value, reason: value }, { requiredKeys: [] });
    const body = fc.oneof(
      fc.record({ id: value, projectIds: fc.array(value, { maxLength: 4 }) }, { requiredKeys: [] }),
      fc.record({ adjustments: fc.oneof(fc.array(adjustment, { maxLength: 4 }), value), comment: value }, { requiredKeys: [] }),
      fc.jsonValue({ maxDepth: 3 }),
    );
    const target = fc.constantFrom('/send', `/${registry.id}/approve`, `/${registry.id}/return`, '/nope/approve');
    await fc.assert(
      fc.asyncProperty(target, body, fc.constantFrom(c.owner, c.direction), async (path, payload, who) => {
        const res = await t.app.inject({ method: 'POST', url: registryPath(path), headers: headers(who, { 'content-type': 'application/json' }), payload: JSON.stringify(payload) ?? 'null' });
        expect(res.statusCode, `${path} ${JSON.stringify(payload)} -> ${res.body}`).toBeLessThan(500);
      }),
      { seed: 20261124, numRuns: 200 },
    );
    // Whatever was decided, the registry reads back whole.
    const stored = answered(await t.app.inject({ method: 'GET', url: registryPath(`/${registry.id}`), headers: headers(c.owner) })).data;
    expect(stored.totals).toEqual(registryTotals(stored.items));
  });
});

describe('replays', () => {
  it('a send, an approval and a return sent again under their keys apply once: one history entry, one notification each', async () => {
    const p = await projectAt(t, c, 'APPROVED');
    const sendKey = randomUUID();
    const body = { id: randomUUID(), projectIds: [p.id] };
    const first = await send(c.direction, body, { 'Idempotency-Key': sendKey });
    expect(first.statusCode).toBe(201);
    clock.advance(60_000);
    const again = await send(c.direction, body, { 'Idempotency-Key': sendKey });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
    expect((await send(c.direction, { ...body, projectIds: [randomUUID()] }, { 'Idempotency-Key': sendKey })).statusCode).toBe(422);
    expect(await notificationsOf(body.id)).toHaveLength(2);
    // Without its key the same send is a new request: its id is taken.
    expect((await send(c.direction, body)).statusCode).toBe(409);

    const approveKey = randomUUID();
    const approval = { adjustments: [{ projectId: p.id, finalCostMinor: 1, reason: 'Пересчёт' }] };
    const approved = await decide(c.owner, body.id, 'approve', approval, { 'Idempotency-Key': approveKey });
    expect(approved.statusCode).toBe(200);
    expect(json(await decide(c.owner, body.id, 'approve', approval, { 'Idempotency-Key': approveKey }))).toEqual(json(approved));
    const stored = await t.db.one<{ history: unknown[] }>('SELECT history FROM registries WHERE id = $1', [body.id]);
    expect(stored?.history).toHaveLength(2);
    expect((await notificationsOf(body.id)).filter((n) => n.kind === 'REGISTRY_APPROVED')).toHaveLength(1);

    const { registry } = await sentRegistry();
    const returnKey = randomUUID();
    const returned = await decide(c.owner, registry.id, 'return', { comment: 'Нет' }, { 'Idempotency-Key': returnKey });
    expect(returned.statusCode).toBe(200);
    expect(json(await decide(c.owner, registry.id, 'return', { comment: 'Нет' }, { 'Idempotency-Key': returnKey }))).toEqual(json(returned));
    expect((await notificationsOf(registry.id)).filter((n) => n.kind === 'REGISTRY_RETURNED')).toHaveLength(1);
    clock.set(START);
  });
});

describe('POST /sync/push', () => {
  type PushAnswer = { data: { results: { id: string; status: number; body: Answer }[] } };
  const push = (who: Login, operations: Record<string, unknown>[]) => t.app.inject({ method: 'POST', url: api('/sync/push'), headers: headers(who), payload: { operations } });

  it('carries an offline send and the offline decisions, each answering as its direct call', async () => {
    const p = await projectAt(t, c, 'APPROVED');
    const registryId = randomUUID();
    const sendOperation = { id: randomUUID(), method: 'POST', path: `/api/v1/companies/${c.acme.companyId}/registry/send`, body: { id: registryId, projectIds: [p.id] } };
    const pushed = await push(c.direction, [sendOperation]);
    expect(pushed.statusCode, pushed.body).toBe(200);
    const [sent] = json<PushAnswer>(pushed).data.results;
    expect(sent?.status).toBe(201);
    expect(sent?.body.data).toMatchObject({ id: registryId, status: 'SENT' });
    // The same row sent again directly under the operation's id replays.
    const direct = await send(c.direction, sendOperation.body, { 'Idempotency-Key': sendOperation.id });
    expect(direct.statusCode).toBe(201);
    expect(json<Answer>(direct).data).toEqual(sent?.body.data);

    const approve = { id: randomUUID(), method: 'POST', path: `/api/v1/companies/${c.acme.companyId}/registry/${registryId}/approve`, body: { adjustments: [{ projectId: p.id, finalCostMinor: 123, reason: 'Офлайн' }] } };
    const [approved] = json<PushAnswer>(await push(c.owner, [approve])).data.results;
    expect(approved?.status).toBe(200);
    expect(approved?.body.data.items[0]).toMatchObject({ finalCostMinor: 123, adjustmentReason: 'Офлайн' });
    expect(approved?.body.message).toBe(`Registry No. ${approved?.body.data.number} has been approved.`);

    // Refusals in a batch answer as their direct calls: the second owner's late return, a sender who may not decide.
    const late = { id: randomUUID(), method: 'POST', path: `/api/v1/companies/${c.acme.companyId}/registry/${registryId}/return`, body: { comment: 'Поздно' } };
    const [refused] = json<PushAnswer>(await push(c.owner2, [late])).data.results;
    expect(refused?.status).toBe(409);
    expect(refused?.body.message).toMatch(new RegExp(`^Registry No\\. \\d+ was already approved by ${nameOf('Хозяинов')} on `));
    const [forbidden] = json<PushAnswer>(await push(c.direction, [{ ...late, id: randomUUID() }])).data.results;
    expect(forbidden?.status).toBe(403);
    const [missing] = json<PushAnswer>(await push(c.owner, [{ ...late, id: randomUUID(), path: `/api/v1/companies/${c.acme.companyId}/registry/nope/return` }])).data.results;
    expect(missing?.status).toBe(404);
    expect((await notificationsOf(registryId)).map((n) => n.kind).sort()).toEqual(['REGISTRY_APPROVED', 'REGISTRY_SENT', 'REGISTRY_SENT']);
  });
});

describe('GET /sync/pull', () => {
  it("carries the company's registries to every member, and the projects' registryId", async () => {
    const { registry, projects } = await sentRegistry();
    const mirror = new Map<string, unknown>();
    let cursor: string | undefined;
    for (;;) {
      const res = await t.app.inject({
        method: 'GET',
        url: api(`/sync/pull?companyId=${c.acme.companyId}&limit=500${cursor ? `&cursor=${cursor}` : ''}`),
        headers: headers(c.employee),
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = json<{ data: SyncPage }>(res).data;
      expect(SyncPage.is(page)).toBe(true);
      for (const change of page.changes) if (change.op === 'upsert') mirror.set(`${change.table}:${change.id}`, change.row);
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    const pulled = mirror.get(`registries:${registry.id}`);
    expect(Registry.is(pulled)).toBe(true);
    expect(pulled).toEqual(registry);
    expect(mirror.get(`projects:${projects[0]!.id}`)).toMatchObject({ registryId: registry.id });

    // After the return the feed brings the registry's new state and the projects back in the open registry.
    answered(await decide(c.owner, registry.id, 'return', { comment: 'Нет' }));
    const res = await t.app.inject({ method: 'GET', url: api(`/sync/pull?companyId=${c.acme.companyId}&limit=500&cursor=${cursor}`), headers: headers(c.employee) });
    const changes = json<{ data: SyncPage }>(res).data.changes;
    expect(changes.find((change) => change.table === 'registries' && change.id === registry.id)?.row).toMatchObject({ status: 'RETURNED' });
    expect(changes.find((change) => change.table === 'projects' && change.id === projects[0]!.id)?.row).toMatchObject({ registryId: null });
  });
});
