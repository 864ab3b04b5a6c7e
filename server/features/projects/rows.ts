// A project row as the API and the pull carry it (src/domain/project.ts `Project`): one select for every read
// (the service's, the sync's), with its images in their order and the project manager's user account joined in.
// Money columns are bigint: read as strings, answered as numbers (every stored amount is a safe integer: the
// structs refuse others before they are written).

import { jsonBuildObject } from 'kysely/helpers/postgres';
import type { EffectRepeatability, Project, ProjectHistoryEntry, ProjectIndicatorReport, ProjectMetric, ProjectStatus, ProjectTeamMember, ProjectType, ReportingFrequency } from '../../../src/domain/project';
import { remunerationOf } from '../../../src/domain/money';
import type { Currency } from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';
import type { ImageType } from '../files/detect';
import { imageLinkOf } from '../files/routes';

/** The columns the schema keeps narrower than its types say (the migration's CHECKs, the jsonb shapes written). */
type Narrowed = {
  status: ProjectStatus;
  type: ProjectType;
  currency: Currency;
  reporting_frequency: ReportingFrequency;
  post_monitoring_periodicity: ReportingFrequency;
  effect_repeatability: EffectRepeatability;
  baseline_metric: ProjectMetric | null;
  target_metric: ProjectMetric | null;
  team: ProjectTeamMember[];
  payments: { employeeId: string; amountMinor: number }[];
  indicator_reports: ProjectIndicatorReport[];
  history: ProjectHistoryEntry[];
  images: { id: string; contentType: ImageType; name: string }[] | null;
};

/** Every column of a project (`p`), its images and `project_manager_user_id`. */
export function selectProjects(db: Queryable) {
  return db.kysely
    .selectFrom('projects as p')
    .leftJoin('employees as pm', (join) => join.onRef('pm.company_id', '=', 'p.company_id').onRef('pm.id', '=', 'p.project_manager_employee_id'))
    .selectAll('p')
    .select((eb) => [
      'pm.user_id as project_manager_user_id',
      eb
        .selectFrom('project_images as pi')
        .innerJoin('files as f', 'f.id', 'pi.file_id')
        .whereRef('pi.company_id', '=', 'p.company_id')
        .whereRef('pi.project_id', '=', 'p.id')
        .select((agg) =>
          agg.fn
            .jsonAgg(jsonBuildObject({ id: agg.ref('f.id'), contentType: agg.ref('f.content_type'), name: agg.ref('f.name') }))
            .orderBy('pi.position')
            .as('images'),
        )
        .as('images'),
    ])
    .$narrowType<Narrowed>();
}

export type ProjectRow = Awaited<ReturnType<ReturnType<typeof selectProjects>['executeTakeFirstOrThrow']>>;

const amount = (value: string | null): number | null => (value === null ? null : Number(value));

/** The project as the API answers it; its remuneration worked out from its terms (null until the effect is known). */
export function toProject(row: ProjectRow): Project {
  const expectedEffect12mMinor = amount(row.expected_effect_12m_minor);
  const maxPerProjectMinor = amount(row.max_per_project_minor);
  const remunerationMinor =
    expectedEffect12mMinor === null ? null : remunerationOf({ profitBasisPoints: row.profit_basis_points, expectedEffect12mMinor, maxPerProjectMinor });
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    problem: row.problem,
    images: (row.images ?? []).map((f) => ({ imageId: f.id, imageLink: imageLinkOf(f), name: f.name })),
    type: row.type,
    suggestionId: row.suggestion_id,
    departmentId: row.department_id,
    authorUserId: row.author_user_id,
    authorName: row.author_name,
    businessCustomerEmployeeId: row.business_customer_employee_id,
    goalIds: row.goal_ids,
    baselineMetric: row.baseline_metric,
    targetMetric: row.target_metric,
    completionDate: row.completion_date,
    actualCompletionDate: row.actual_completion_date,
    reportingFrequency: row.reporting_frequency,
    postMonitoringPeriodicity: row.post_monitoring_periodicity,
    projectManagerEmployeeId: row.project_manager_employee_id,
    projectManagerUserId: row.project_manager_user_id ?? null,
    team: row.team,
    currency: row.currency,
    profitBasisPoints: row.profit_basis_points,
    maxPerProjectMinor,
    estimatedCostsMinor: amount(row.estimated_costs_minor),
    expectedEffect12mMinor,
    actualEffect12mMinor: amount(row.actual_effect_12m_minor),
    effectRepeatability: row.effect_repeatability,
    remunerationMinor,
    payments: row.payments,
    status: row.status,
    indicatorReports: row.indicator_reports,
    nextReportDue: row.next_report_due,
    reportOverdueAt: row.report_overdue_at?.toISOString() ?? null,
    history: row.history,
    registryId: row.registry_id,
    createdBy: row.created_by ?? '',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
