// Goals and projects (issue 12). Both are tenant rows mirrored to every member of the company (the change
// trigger feeds the pull), with their audit trail as a jsonb list of entries (who, when, from which state,
// comment) written in the transaction of each change. Calendar dates are kept as 'YYYY-MM-DD' text (the API's
// form; the drivers would turn a `date` into a local-midnight Date). Money is integer minor units (bigint) of
// the project's currency; the profit percentage is basis points. A proposal becomes at most one project.

import type { Migration } from './migration';

const CALENDAR_DATE = `'^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`;
const FREQUENCIES = `('WEEKLY', 'MONTHLY', 'QUARTERLY', 'HALF_YEARLY')`;

export const migration: Migration = {
  id: '0011_goals_projects',
  statements: [
    `CREATE TABLE goals (
      company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      direction text NOT NULL,
      scope text NOT NULL,
      description text NOT NULL,
      expected_result text NOT NULL,
      indicator_value double precision NOT NULL CHECK (indicator_value >= 0),
      indicator_unit text NOT NULL,
      owner_goal text NOT NULL,
      start_date text NOT NULL CHECK (start_date ~ ${CALENDAR_DATE}),
      end_date text NOT NULL CHECK (end_date ~ ${CALENDAR_DATE}),
      business_customer_employee_id uuid NOT NULL,
      process text NOT NULL,
      status text NOT NULL DEFAULT 'NEW' CHECK (status IN ('NEW', 'TO_WORK', 'CLARIFICATION', 'APPROVED')),
      history jsonb NOT NULL DEFAULT '[]',
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      change_seq bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (company_id, id),
      FOREIGN KEY (company_id, business_customer_employee_id) REFERENCES employees (company_id, id),
      CHECK (end_date > start_date)
    )`,
    `CREATE UNIQUE INDEX goals_id_key ON goals (id)`,
    `CREATE INDEX goals_status_idx ON goals (company_id, status, end_date)`,
    `CREATE TRIGGER goals_changes BEFORE INSERT OR UPDATE OR DELETE ON goals FOR EACH ROW EXECUTE FUNCTION record_change()`,

    `CREATE TABLE projects (
      company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      name text NOT NULL,
      problem text NOT NULL,
      type text NOT NULL CHECK (type IN ('ORGANIZATIONAL', 'TECHNICAL', 'INVESTMENT')),
      suggestion_id uuid,
      department_id uuid,
      author_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      author_name text NOT NULL,
      business_customer_employee_id uuid,
      goal_ids uuid[] NOT NULL DEFAULT '{}',
      baseline_metric jsonb,
      target_metric jsonb,
      completion_date text NOT NULL CHECK (completion_date ~ ${CALENDAR_DATE}),
      actual_completion_date text CHECK (actual_completion_date ~ ${CALENDAR_DATE}),
      reporting_frequency text NOT NULL CHECK (reporting_frequency IN ${FREQUENCIES}),
      post_monitoring_periodicity text NOT NULL CHECK (post_monitoring_periodicity IN ${FREQUENCIES}),
      project_manager_employee_id uuid NOT NULL,
      team jsonb NOT NULL DEFAULT '[]',
      currency text NOT NULL CHECK (currency IN ('RUB', 'USD', 'AUD')),
      profit_basis_points integer NOT NULL CHECK (profit_basis_points BETWEEN 0 AND 10000),
      max_per_project_minor bigint CHECK (max_per_project_minor >= 0),
      estimated_costs_minor bigint CHECK (estimated_costs_minor >= 0),
      expected_effect_12m_minor bigint CHECK (expected_effect_12m_minor >= 0),
      actual_effect_12m_minor bigint CHECK (actual_effect_12m_minor >= 0),
      effect_repeatability text NOT NULL CHECK (effect_repeatability IN ('ONE_TIME', 'RECURRING')),
      payments jsonb NOT NULL DEFAULT '[]',
      status text NOT NULL DEFAULT 'NEW' CHECK (status IN ('NEW', 'CALCULATING', 'CALCULATED', 'APPROVED', 'FOR_REVISION', 'COMPLETED')),
      indicator_reports jsonb NOT NULL DEFAULT '[]',
      next_report_due text CHECK (next_report_due ~ ${CALENDAR_DATE}),
      report_overdue_at timestamptz,
      history jsonb NOT NULL DEFAULT '[]',
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      change_seq bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (company_id, id),
      FOREIGN KEY (company_id, suggestion_id) REFERENCES suggestions (company_id, id),
      FOREIGN KEY (company_id, department_id) REFERENCES departments (company_id, id),
      FOREIGN KEY (company_id, business_customer_employee_id) REFERENCES employees (company_id, id),
      FOREIGN KEY (company_id, project_manager_employee_id) REFERENCES employees (company_id, id),
      CHECK ((status = 'COMPLETED') = (actual_completion_date IS NOT NULL))
    )`,
    `CREATE UNIQUE INDEX projects_id_key ON projects (id)`,
    `CREATE UNIQUE INDEX projects_suggestion_key ON projects (company_id, suggestion_id) WHERE suggestion_id IS NOT NULL`,
    `CREATE INDEX projects_status_idx ON projects (company_id, status, updated_at)`,
    `CREATE INDEX projects_goals_idx ON projects USING gin (goal_ids)`,
    // The indicator job's pass: reports due, by due date.
    `CREATE INDEX projects_report_due_idx ON projects (next_report_due) WHERE next_report_due IS NOT NULL`,
    `CREATE TRIGGER projects_changes BEFORE INSERT OR UPDATE OR DELETE ON projects FOR EACH ROW EXECUTE FUNCTION record_change()`,
    `CREATE TABLE project_images (
      company_id uuid NOT NULL,
      project_id uuid NOT NULL,
      file_id uuid NOT NULL REFERENCES files (id),
      position smallint NOT NULL CHECK (position BETWEEN 0 AND 7),
      PRIMARY KEY (company_id, project_id, position),
      UNIQUE (company_id, project_id, file_id),
      FOREIGN KEY (company_id, project_id) REFERENCES projects (company_id, id) ON DELETE CASCADE
    )`,
    `CREATE INDEX project_images_file_idx ON project_images (file_id)`,
    `ALTER TABLE notifications ADD COLUMN goal_id uuid, ADD COLUMN project_id uuid`,
  ],
};
