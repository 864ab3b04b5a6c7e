// What the dashboard covers: the period (the UI kit's range date picker with this month, this quarter, this
// year and a custom range) and, for viewers who may choose, the department ("Whole company" or "All my
// departments" first). Both live in the URL (useDashboardView).
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { DASHBOARD_MAX_DAYS, type DashboardScope } from '../../../domain/dashboard';
import { DatePicker, type DateRangePreset } from '../../../ui/date-picker/date-picker';
import { SEARCHABLE_FROM } from '../../../ui/select/options';
import { Select } from '../../../ui/select';
import { FIGURE_MESSAGES } from '../messages';
import { presetRanges, type DashboardView } from '../period';

/** The id of the "all of my scope" choice (department ids are UUIDs; the select reads '' as no choice). */
const ALL = 'all';

export interface DashboardFiltersProps {
  view: DashboardView;
  today: string;
  scope: DashboardScope | undefined;
  /** The departments offered (ids with names), after the "all" choice; null: no choice to make. */
  departments: readonly { id: string; name: string }[] | null;
  /** The department asked for (after the scope's check). */
  departmentId: string | null;
  onChange: (changes: Partial<DashboardView>) => void;
}

export function DashboardFilters({ view, today, scope, departments, departmentId, onChange }: DashboardFiltersProps) {
  const intl = useIntl();
  const presets = useMemo((): DateRangePreset[] => {
    const ranges = presetRanges(today);
    return [
      { id: 'month', title: intl.formatMessage({ id: 'dashboard.period.month', defaultMessage: 'This month' }), range: [ranges.month.from, ranges.month.to] },
      { id: 'quarter', title: intl.formatMessage({ id: 'dashboard.period.quarter', defaultMessage: 'This quarter' }), range: [ranges.quarter.from, ranges.quarter.to] },
      { id: 'year', title: intl.formatMessage({ id: 'dashboard.period.year', defaultMessage: 'This year' }), range: [ranges.year.from, ranges.year.to] },
      { id: 'custom', title: intl.formatMessage({ id: 'dashboard.period.custom', defaultMessage: 'Custom period' }), range: 'custom' },
    ];
  }, [intl, today]);
  const allTitle = intl.formatMessage(scope?.kind === 'company' ? FIGURE_MESSAGES.wholeCompany : FIGURE_MESSAGES.myDepartments);
  // "All" is an option of its own, so the viewer can always come back to it.
  const options = useMemo(() => [{ id: ALL, title: allTitle }, ...(departments ?? []).map(({ id, name }) => ({ id, title: name }))], [allTitle, departments]);

  return (
    <div className="dashboard-filters" role="group" aria-label={intl.formatMessage({ id: 'dashboard.filters.label', defaultMessage: 'What the figures cover' })}>
      <div className="dashboard-filters__period" data-testid="dashboard-period">
        <DatePicker
          range
          name="period"
          label={intl.formatMessage({ id: 'dashboard.period.dates', defaultMessage: 'Dates' })}
          presetsLabel={intl.formatMessage({ id: 'dashboard.period.label', defaultMessage: 'Period' })}
          presets={presets}
          value={[view.from, view.to]}
          maxRange={DASHBOARD_MAX_DAYS}
          onChange={(range) => {
            if (range) onChange({ from: range[0], to: range[1] });
          }}
        />
      </div>
      {departments !== null && (
        <div className="dashboard-filters__department" data-testid="dashboard-department">
          <Select
            label={intl.formatMessage(FIGURE_MESSAGES.department)}
            name="departmentId"
            value={departmentId ?? ALL}
            onChange={(value) => onChange({ departmentId: value === ALL ? null : value })}
            options={options}
            searchable={options.length >= SEARCHABLE_FROM}
          />
        </div>
      )}
    </div>
  );
}
