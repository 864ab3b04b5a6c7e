// The figures part of the dashboard page for the current company: what they cover (period, department), when
// they were computed ("Figures as of ...", always shown with figures, with a calm note when they may be out of
// date: offline, or the last request failed), the figures and charts, the XLSX export, and the financial
// director's EBITDA entry. The figures come from the device at once and are refreshed from the server
// (useDashboardFigures); a viewer without a scope gets an explanation, not an error.
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { hasPermission } from '../../../domain/permissions';
import type { CompanyMembership } from '../../../lib/current-company';
import type { StoredDashboard } from '../../../lib/db/database';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { FIGURE_MESSAGES } from '../messages';
import { choosableDepartmentIds, queryOf } from '../period';
import {
  useDashboardFigures,
  useDashboardScope,
  useDashboardView,
  useExportDashboard,
  useRegistriesToApprove,
  useUnitTitle,
  type DashboardFiguresState,
  type DashboardScopeInfo,
} from '../hooks';
import { DASHBOARD_COMPANY_ROLES } from '../../../domain/dashboard';
import type { ChartConstructor } from './chart-loader';
import { DashboardCharts } from './dashboard-charts';
import { DashboardFigures } from './dashboard-figures';
import { DashboardFilters } from './dashboard-filters';
import { EbitdaFormPart } from './dashboard-parts';

export interface DashboardOverviewProps {
  company: CompanyMembership;
  /** Where chart.js comes from (tests give a stand-in). */
  loadChart?: () => Promise<ChartConstructor>;
}

/** What the figures cover, in words: the whole company, a department, or all the head's departments. */
function scopeNameOf(intl: ReturnType<typeof useIntl>, stored: StoredDashboard, scopeInfo: DashboardScopeInfo | undefined): string {
  const { departmentId } = stored.dashboard;
  if (departmentId === null) return intl.formatMessage(scopeInfo?.scope.kind === 'departments' ? FIGURE_MESSAGES.myDepartments : FIGURE_MESSAGES.wholeCompany);
  const name =
    scopeInfo?.departments.find((department) => department.id === departmentId)?.name ??
    stored.dashboard.involvement.byDepartment.find((department) => department.departmentId === departmentId)?.name;
  return name ?? departmentId;
}

function AsOf({ figures }: { figures: DashboardFiguresState }) {
  const intl = useIntl();
  const { stored, status } = figures;
  let text: ReactNode;
  if (stored) {
    text = (
      <FormattedMessage
        id="dashboard.asOf"
        defaultMessage="Figures as of {at}"
        values={{ at: intl.formatDate(stored.dashboard.computedAt, { dateStyle: 'medium', timeStyle: 'short' }) }}
      />
    );
  } else if (status === 'loading' || stored === undefined) {
    text = <FormattedMessage id="dashboard.loading" defaultMessage="Loading the figures…" />;
  } else {
    text = <FormattedMessage id="dashboard.noFiguresYet" defaultMessage="No figures for this period on this device yet." />;
  }
  return (
    <p className="dashboard-overview__as-of" data-testid="dashboard-as-of" data-status={status} aria-live="polite">
      {text}
    </p>
  );
}

function StaleNote({ figures }: { figures: DashboardFiguresState }) {
  const { stored, status, refusal } = figures;
  if (status === 'refused') {
    return (
      <p className="dashboard__note dashboard__note--calm" data-note="refused">
        {refusal ?? <FormattedMessage id="dashboard.refused" defaultMessage="The server did not give figures for this choice. Choose another period or department." />}
      </p>
    );
  }
  if (status !== 'offline' && status !== 'failed') return null;
  const hasFigures = stored !== null && stored !== undefined;
  return (
    <p className="dashboard__note dashboard__note--calm" data-note={status}>
      {status === 'offline' ? (
        hasFigures ? (
          <FormattedMessage id="dashboard.stale.offline" defaultMessage="You are offline: these are the last figures this device received, and they may be out of date." />
        ) : (
          <FormattedMessage id="dashboard.stale.offlineNone" defaultMessage="You are offline: the figures for this period load once the connection is back." />
        )
      ) : hasFigures ? (
        <FormattedMessage id="dashboard.stale.failed" defaultMessage="The figures could not be refreshed just now: these are the last ones received, and they may be out of date." />
      ) : (
        <FormattedMessage id="dashboard.stale.failedNone" defaultMessage="The figures could not be loaded just now. They are asked for again when the connection is back." />
      )}
    </p>
  );
}

function NoScope() {
  return (
    <div className="dashboard__card" data-testid="dashboard-no-scope">
      <h3 className="dashboard__card-title">
        <FormattedMessage id="dashboard.noScope.title" defaultMessage="No figures for you here yet" />
      </h3>
      <p className="dashboard__text">
        <FormattedMessage
          id="dashboard.noScope.text"
          defaultMessage="The dashboard shows the figures of your department, and you are not in a department of this company yet. Ask HR to add you to yours; the company's leaders and finance see the whole company."
        />
      </p>
    </div>
  );
}

export function DashboardOverview({ company, loadChart }: DashboardOverviewProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const { view, today, setView } = useDashboardView();
  const scopeInfo = useDashboardScope(company.id);
  const scope = scopeInfo?.scope;
  // A department from the URL waits for the scope (it decides whether the viewer may ask for it).
  const query = view.departmentId !== null && scopeInfo === undefined ? null : queryOf(view, scope);
  const figures = useDashboardFigures(company.id, query);
  const registriesToApprove = useRegistriesToApprove(company.id, company.roles.includes('OWNER'));
  const unitTitle = useUnitTitle();
  const exportXlsx = useExportDashboard();
  const [isExporting, setExporting] = useState(false);
  const { stored } = figures;

  const choosable = choosableDepartmentIds(scope, scopeInfo?.departments.map((department) => department.id) ?? []);
  const departments =
    choosable === null
      ? null
      : choosable
          .map((id) => ({ id, name: scopeInfo?.departments.find((department) => department.id === id)?.name ?? id }))
          .sort((a, b) => a.name.localeCompare(b.name));
  const isNoScope = figures.status === 'noScope' || (scope?.kind === 'none' && !stored);
  const canSeeRegistry = company.roles.some((role) => (DASHBOARD_COMPANY_ROLES as readonly string[]).includes(role));

  async function exportWorkbook(dashboardRow: StoredDashboard) {
    setExporting(true);
    try {
      await exportXlsx(dashboardRow.dashboard, { scopeName: scopeNameOf(intl, dashboardRow, scopeInfo), unitTitle });
    } catch (error) {
      console.error('The XLSX export failed', error);
      await dialog.error({ content: intl.formatMessage({ id: 'dashboard.export.failed', defaultMessage: 'The Excel file could not be made. Try again.' }) });
    } finally {
      setExporting(false);
    }
  }

  return (
    <section className="dashboard-overview" aria-labelledby="dashboard-overview-title">
      <div className="dashboard-overview__head">
        <h2 className="dashboard-overview__title" id="dashboard-overview-title">
          <FormattedMessage id="dashboard.overview.title" defaultMessage="Improvement in figures" />
        </h2>
        <Button variant="secondary" data-testid="dashboard-export" disabled={!stored || isExporting} loading={isExporting} onClick={() => stored && void exportWorkbook(stored)}>
          <FormattedMessage id="dashboard.export" defaultMessage="Export to Excel" />
        </Button>
      </div>
      <DashboardFilters view={view} today={today} scope={scope} departments={departments} departmentId={query?.departmentId ?? null} onChange={setView} />
      {isNoScope ? (
        <NoScope />
      ) : (
        <>
          <AsOf figures={figures} />
          <StaleNote figures={figures} />
          {stored && (
            <>
              <DashboardFigures
                companyId={company.id}
                dashboard={stored.dashboard}
                unitTitle={unitTitle}
                showRegistryLink={canSeeRegistry}
                registriesToApprove={registriesToApprove ?? null}
              />
              <DashboardCharts dashboard={stored.dashboard} loadChart={loadChart} />
            </>
          )}
        </>
      )}
      {hasPermission(company.roles, 'ebitda.edit') && <EbitdaFormPart companyId={company.id} today={today} onSaved={figures.refresh} />}
    </section>
  );
}
