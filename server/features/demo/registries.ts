// The demo company's registries (issue 13), written as server/features/registry would have written them step by
// step, after the seed's projects exist: No. 1 sent by findir@ and approved by owner@ some weeks ago (one final
// cost adjusted, with its reason); No. 2 sent by direction@ and returned by owner@ with a comment (its projects
// are back in the open registry); No. 3 sent by direction@ two days ago, waiting on owner@.
//
// What it guarantees:
// - Each row is shaped as src/domain/registry.ts `Registry` reads it: items are snapshots of the seeded projects
//   as toProject answers them (remuneration included), the project manager's full name beside them, totals are
//   `registryTotals(items)`, the history leads to the status.
// - A registry holds only projects approved before it was sent; `projects.registry_id` names the SENT or APPROVED
//   registry holding the project and is null for the RETURNED one's projects (the open registry).
// - Numbers count from 1 in the order of sending; a registry whose projects are all missing is left out.
// - Every registry told owner@ it was sent (the decided ones' notices read when decided), and its sender of the
//   owner's decision, with `registry_id`.

import { randomUUID } from 'node:crypto';
import type { Project } from '../../../src/domain/project';
import { registryTotals, type RegistryHistoryEntry, type RegistryItem } from '../../../src/domain/registry';
import { fullNameOf } from '../../auth/users';
import type { Queryable } from '../../db/database';
import { selectProjects, toProject } from '../projects/rows';

/** A demo login's user, as the seed reads it. */
export interface DemoPerson {
  id: string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
}

/** A notification row of a registry, as the seed inserts them (unread unless `read_at`). */
export interface DemoRegistryNotice {
  company_id: string;
  user_id: string;
  kind: 'REGISTRY_SENT' | 'REGISTRY_APPROVED' | 'REGISTRY_RETURNED';
  suggestion_id: null;
  registry_id: string;
  params: string;
  created_at: string;
  read_at: string | null;
}

interface DemoRegistryPlan {
  sentBy: string;
  /** Sent this many days ago. */
  sentDaysAgo: number;
  /** The projects sent, by name (DEMO_PROJECTS of seed.ts). */
  projects: readonly string[];
  decision?: {
    status: 'APPROVED' | 'RETURNED';
    /** Decided by owner@ this many days ago. */
    daysAgo: number;
    comment: string | null;
    /** APPROVED: the owner's final costs, by project name. */
    adjustments?: readonly { project: string; finalCostMinor: number; reason: string }[];
  };
}

const OWNER = 'owner@demo.local';

/** The registries in the order they were sent (their numbers). */
export const DEMO_REGISTRIES: readonly DemoRegistryPlan[] = [
  {
    sentBy: 'findir@demo.local',
    sentDaysAgo: 45,
    projects: ['Частотные преобразователи на вентиляции цеха № 1', 'Контрольные приспособления для экспортных заказов', 'Раздельный сбор стружки по маркам стали'],
    decision: {
      status: 'APPROVED',
      daysAgo: 38,
      comment: 'Утверждаю. Затраты на преобразователи — по акту выполненных работ.',
      adjustments: [
        {
          project: 'Частотные преобразователи на вентиляции цеха № 1',
          finalCostMinor: 98_700_000,
          reason: 'По акту выполненных работ монтаж обошёлся на 37 000 ₽ дороже сметы: добавлены кабельные лотки.',
        },
      ],
    },
  },
  {
    sentBy: 'direction@demo.local',
    sentDaysAgo: 22,
    projects: ['Тележки для перевозки оснастки', 'Оборотная тара на маршруте механообработка — сборка'],
    decision: {
      status: 'RETURNED',
      daysAgo: 18,
      comment: 'Тележки и тару пришлите после первого месяца работы: покажите по отчётам, что время перемещений действительно сократилось.',
    },
  },
  {
    sentBy: 'direction@demo.local',
    sentDaysAgo: 2,
    projects: ['Устранение утечек сжатого воздуха', 'Готовые наборы оснастки для частых заказов'],
  },
];

const DAY = 24 * 60 * 60 * 1000;
const at = (ms: number) => new Date(ms).toISOString();

/** When the direction manager approved the project: its history's last move to APPROVED. */
function approvedAtOf(project: Project): number | null {
  const entry = project.history.findLast((h) => h.action === 'TRANSITION' && h.toStatus === 'APPROVED');
  return entry ? Date.parse(entry.at) : null;
}

/** The snapshot of `project` a registry keeps (as the send does), with the owner's adjustment where there is one. */
function itemOf(project: Project, managerName: string | null, adjustment: { finalCostMinor: number; reason: string } | undefined): RegistryItem {
  return {
    projectId: project.id,
    name: project.name,
    departmentId: project.departmentId,
    projectManagerName: managerName,
    currency: project.currency,
    estimatedCostsMinor: project.estimatedCostsMinor ?? 0,
    expectedEffect12mMinor: project.expectedEffect12mMinor ?? 0,
    remunerationMinor: project.remunerationMinor ?? 0,
    finalCostMinor: adjustment?.finalCostMinor ?? null,
    adjustmentReason: adjustment?.reason ?? null,
  };
}

/**
 * Writes DEMO_REGISTRIES for the company's seeded projects, files their projects under the SENT and APPROVED ones,
 * and answers the notifications they gave.
 */
export async function seedDemoRegistries(
  tx: Queryable,
  ctx: { companyId: string; now: number; people: ReadonlyMap<string, DemoPerson> },
): Promise<DemoRegistryNotice[]> {
  const { companyId, now, people } = ctx;
  const projects = (await selectProjects(tx).where('p.company_id', '=', companyId).execute()).map(toProject);
  const byName = new Map(projects.map((p) => [p.name, p]));
  const managers = new Map(
    (await tx.kysely.selectFrom('employees').select(['id', 'last_name', 'first_name', 'middle_name']).where('company_id', '=', companyId).execute()).map((e) => [e.id, fullNameOf(e)]),
  );
  const owner = people.get(OWNER);
  const notices: DemoRegistryNotice[] = [];
  let number = 0;
  for (const plan of DEMO_REGISTRIES) {
    const sender = people.get(plan.sentBy);
    const sentAt = now - plan.sentDaysAgo * DAY;
    const held = plan.projects
      .flatMap((name) => byName.get(name) ?? [])
      .filter((p) => (p.status === 'APPROVED' || p.status === 'COMPLETED') && (approvedAtOf(p) ?? Infinity) < sentAt)
      .sort((a, b) => (approvedAtOf(a) ?? 0) - (approvedAtOf(b) ?? 0) || a.name.localeCompare(b.name, 'ru'));
    if (!sender || held.length === 0) continue;
    if (plan.decision && !owner) continue;
    number += 1;
    const id = randomUUID();
    const senderName = fullNameOf(sender);
    const adjustments = new Map((plan.decision?.adjustments ?? []).map((a) => [a.project, a]));
    const items = held.map((p) => itemOf(p, managers.get(p.projectManagerEmployeeId) ?? null, adjustments.get(p.name)));
    const history: RegistryHistoryEntry[] = [{ at: at(sentAt), action: 'SEND', fromStatus: 'OPEN', toStatus: 'SENT', byUserId: sender.id, byName: senderName, comment: null }];
    const decision = plan.decision && owner ? { ...plan.decision, at: now - plan.decision.daysAgo * DAY, by: owner } : null;
    if (decision) {
      history.push({
        at: at(decision.at),
        action: decision.status === 'APPROVED' ? 'APPROVE' : 'RETURN',
        fromStatus: 'SENT',
        toStatus: decision.status,
        byUserId: decision.by.id,
        byName: fullNameOf(decision.by),
        comment: decision.comment,
      });
    }
    await tx.kysely
      .insertInto('registries')
      .values({
        company_id: companyId,
        id,
        number,
        status: decision?.status ?? 'SENT',
        items: JSON.stringify(items),
        totals: JSON.stringify(registryTotals(items)),
        sent_by: sender.id,
        sent_by_name: senderName,
        sent_at: at(sentAt),
        decided_by: decision?.by.id ?? null,
        decided_by_name: decision ? fullNameOf(decision.by) : null,
        decided_at: decision ? at(decision.at) : null,
        decision_comment: decision?.comment ?? null,
        history: JSON.stringify(history),
        created_at: at(sentAt),
        updated_at: at(decision?.at ?? sentAt),
      })
      .execute();
    // The RETURNED one's projects went back to the open registry.
    if (decision?.status !== 'RETURNED') {
      await tx.kysely
        .updateTable('projects')
        .set({ registry_id: id })
        .where('company_id', '=', companyId)
        .where('id', 'in', held.map((p) => p.id))
        .execute();
    }
    const notice = (to: DemoPerson, kind: DemoRegistryNotice['kind'], when: number, by: DemoPerson, comment: string | null, readAt: number | null): DemoRegistryNotice => ({
      company_id: companyId,
      user_id: to.id,
      kind,
      suggestion_id: null,
      registry_id: id,
      params: JSON.stringify({ number: String(number), byName: fullNameOf(by), comment }),
      created_at: at(when),
      read_at: readAt === null ? null : at(readAt),
    });
    if (owner) notices.push(notice(owner, 'REGISTRY_SENT', sentAt, sender, null, decision?.at ?? null));
    if (decision) notices.push(notice(sender, decision.status === 'APPROVED' ? 'REGISTRY_APPROVED' : 'REGISTRY_RETURNED', decision.at, decision.by, decision.comment, null));
  }
  return notices;
}
