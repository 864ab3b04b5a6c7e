// The company's projects (spec section 4): all, being calculated, approved, for revision, new. The filter lives in
// the URL (`?filter=`), so a reload or the back button brings the same list back. Reads only the mirror (works
// offline); the list is windowed, so 5,000 projects scroll like 20: ids come from index keys, rows are read
// only for the window on screen.
import { memo, useCallback } from 'react';
import { FormattedMessage, useIntl, type IntlShape, type MessageDescriptor } from 'react-intl';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { minorToAmountText } from '../../../domain/money';
import { paths } from '../../../domain/paths';
import { PROJECT_LIST_FILTERS, canCreateProject, type Project, type ProjectListFilter, type ProjectStatus } from '../../../domain/project';
import { buttonClassName } from '../../../ui/button';
import type { OutboxStatus } from '../../../lib/db/database';
import { useCurrentUser } from '../../../lib/app-state';
import { useMemberView } from '../../../lib/member-view';
import { useFirstPullPending } from '../../../lib/sync/use-first-pull';
import { PageSpinner } from '../../../ui/spinner';
import { Tabs } from '../../../ui/tabs';
import { filterFromQuery, queryFromFilter, type ProjectListRow } from '../list';
import { useProjectCounts, useProjectIds, useProjectWindow } from '../list-hooks';
import '../projects-list.css';
import { useRowNavigation, useVirtualWindow } from '../../../ui/virtual-window';

/** Every row has this height, so the list never measures (projects-list.css keeps to it). */
export const PROJECT_ROW_HEIGHT = 96;

const FILTER_MESSAGES = {
  all: { id: 'projects.list.filter.all', defaultMessage: 'All' },
  calculating: { id: 'projects.list.filter.calculating', defaultMessage: 'Being calculated' },
  approved: { id: 'projects.list.filter.approved', defaultMessage: 'Approved' },
  forRevision: { id: 'projects.list.filter.forRevision', defaultMessage: 'For revision' },
  new: { id: 'projects.list.filter.new', defaultMessage: 'New' },
} as const satisfies Record<ProjectListFilter, MessageDescriptor>;

const STATUS_MESSAGES = {
  NEW: { id: 'projects.list.status.NEW', defaultMessage: 'New' },
  CALCULATING: { id: 'projects.list.status.CALCULATING', defaultMessage: 'Being calculated' },
  CALCULATED: { id: 'projects.list.status.CALCULATED', defaultMessage: 'Calculated, awaiting approval' },
  APPROVED: { id: 'projects.list.status.APPROVED', defaultMessage: 'Approved' },
  FOR_REVISION: { id: 'projects.list.status.FOR_REVISION', defaultMessage: 'For revision' },
  COMPLETED: { id: 'projects.list.status.COMPLETED', defaultMessage: 'Completed' },
} as const satisfies Record<ProjectStatus, MessageDescriptor>;

/** The visible "waiting to send" mark of a project with unsent changes (or that the server refused them). */
function UnsentMark({ state }: { state: OutboxStatus }) {
  const isStuck = state === 'conflict' || state === 'failed';
  return (
    <span className={`project-unsent-mark${isStuck ? ' project-unsent-mark--stuck' : ''}`} data-unsent={state}>
      {isStuck ? (
        <FormattedMessage id="projects.unsent.stuck" defaultMessage="Not sent: see Unsent" />
      ) : (
        <FormattedMessage id="projects.unsent.waiting" defaultMessage="Waiting to send" />
      )}
    </span>
  );
}

/** An amount in minor units of `currency`, formatted exactly (the decimal text, never a float, goes to Intl). */
export function formatMinor(intl: IntlShape, amountMinor: number, currency: string): string {
  // No ",00" on a whole amount: on a 360 px phone those three characters are what the row's status needs to be
  // read whole ("Утверждён", not "Утве…").
  return intl.formatNumber(minorToAmountText(amountMinor) as `${number}`, { style: 'currency', currency, trailingZeroDisplay: 'stripIfInteger' });
}

export default function ProjectsPage() {
  const intl = useIntl();
  const { companyId = '' } = useParams<{ companyId: string }>();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const filter = filterFromQuery(search);
  const member = useMemberView(companyId);
  const counts = useProjectCounts(companyId);
  const list = useProjectIds(companyId, filter);
  const firstPullPending = useFirstPullPending(useCurrentUser().id, companyId);

  const change = useCallback(
    (next: string) => {
      const chosen = PROJECT_LIST_FILTERS.find((known) => known === next) ?? 'all';
      navigate(`${paths.company.projects(companyId)}${queryFromFilter(chosen)}`);
    },
    [companyId, navigate],
  );

  if (list === undefined) return <PageSpinner />;
  const { ids, isComplete, isCurrent, firstRows } = list;
  // No rows yet while the company's first pull is on its way: the list is loading, not empty, and its tabs and
  // count say no number (0 would be wrong).
  const isLoading = ids.length === 0 && firstPullPending !== false;
  const backTo = `${location}${search === '' ? '' : `?${search}`}`;

  return (
    <section className="projects-page projects-list-page" aria-labelledby="projects-list-title">
      <p className="projects-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <div className="projects-page__head">
        <h1 className="projects-page__title" id="projects-list-title">
          <FormattedMessage id="projects.list.title" defaultMessage="Projects" />
        </h1>
        {member && canCreateProject(member) && (
          <Link href={paths.company.projectsCreate(companyId)} className={buttonClassName('primary')}>
            <FormattedMessage id="projects.list.create" defaultMessage="New project" />
          </Link>
        )}
      </div>
      <Tabs
        label={intl.formatMessage({ id: 'projects.list.filters', defaultMessage: 'Which projects' })}
        tabs={PROJECT_LIST_FILTERS.map((id) => ({
          id,
          title:
            counts === undefined || isLoading
              ? intl.formatMessage(FILTER_MESSAGES[id])
              : intl.formatMessage({ id: 'projects.list.filterCount', defaultMessage: '{filter} ({count, number})' }, { filter: intl.formatMessage(FILTER_MESSAGES[id]), count: counts[id] }),
        }))}
        value={filter}
        onChange={change}
      >
        <p className="projects-list-page__count" aria-live="polite" data-count={isComplete && !isLoading ? ids.length : undefined} data-pending={isCurrent ? undefined : ''}>
          {isLoading ? null : isComplete ? (
            <FormattedMessage id="projects.list.count" defaultMessage="{count, plural, one {# project} other {# projects}}" values={{ count: ids.length }} />
          ) : (
            <FormattedMessage id="projects.list.counting" defaultMessage="Counting the projects…" />
          )}
        </p>
        {isLoading ? (
          <p className="projects-page__empty" data-empty="loading">
            <FormattedMessage id="projects.list.loading" defaultMessage="The company's projects are loading…" />
          </p>
        ) : ids.length === 0 && isComplete ? (
          <p className="projects-page__empty" data-empty="">
            <FormattedMessage id="projects.list.empty" defaultMessage="No projects here. If you expect some, connect once so the list can load." />
          </p>
        ) : (
          <ProjectList companyId={companyId} ids={ids} firstRows={firstRows} backTo={backTo} />
        )}
      </Tabs>
    </section>
  );
}

interface ProjectListProps {
  companyId: string;
  ids: readonly string[];
  /** Rows read with the first screen, shown until the window's own rows arrive. */
  firstRows: ReadonlyMap<string, ProjectListRow>;
  backTo: string;
}

/** The windowed list: rows in view (and a few around) are in the page, their data read in chunks. */
function ProjectList({ companyId, ids, firstRows, backTo }: ProjectListProps) {
  const intl = useIntl();
  const { scrollRef, items, totalSize, windowIds } = useVirtualWindow(ids, PROJECT_ROW_HEIGHT);
  const rows = useProjectWindow(companyId, windowIds);
  const onClick = useRowNavigation({ backTo });

  return (
    <div
      className="project-rows"
      ref={scrollRef}
      data-project-list=""
      tabIndex={0}
      role="region"
      aria-label={intl.formatMessage({ id: 'projects.list.region', defaultMessage: 'Projects, {count, plural, one {# project} other {# projects}}' }, { count: ids.length })}
    >
      <ul className="project-rows__inner" style={{ height: totalSize }} onClick={onClick}>
        {items.map((item) => {
          const id = ids[item.index];
          if (id === undefined) return null;
          return (
            <ProjectRow key={item.key} companyId={companyId} id={id} row={rows?.get(id) ?? firstRows.get(id)} top={item.start} position={item.index + 1} size={ids.length} />
          );
        })}
      </ul>
    </div>
  );
}

/** The money a row shows: the remuneration once known, else the expected effect once calculated, else nothing. */
function MoneyText({ project }: { project: Project }) {
  const intl = useIntl();
  if (project.remunerationMinor !== null) {
    return (
      <span className="project-row__money">
        <FormattedMessage
          id="projects.list.remuneration"
          defaultMessage="Remuneration {amount}"
          values={{ amount: formatMinor(intl, project.remunerationMinor, project.currency) }}
        />
      </span>
    );
  }
  if (project.expectedEffect12mMinor !== null) {
    return (
      <span className="project-row__money">
        <FormattedMessage id="projects.list.effect" defaultMessage="Expected effect {amount}" values={{ amount: formatMinor(intl, project.expectedEffect12mMinor, project.currency) }} />
      </span>
    );
  }
  return null;
}

interface ProjectRowProps {
  companyId: string;
  id: string;
  /** Undefined while its chunk is being read (or when the row left the mirror meanwhile). */
  row: ProjectListRow | undefined;
  top: number;
  position: number;
  size: number;
}

const ProjectRow = memo(function ProjectRow({ companyId, id, row, top, position, size }: ProjectRowProps) {
  const intl = useIntl();
  const style = { height: PROJECT_ROW_HEIGHT, transform: `translateY(${top}px)` };
  if (!row) {
    return <li className="project-row project-row--loading" style={style} aria-posinset={position} aria-setsize={size} aria-busy="true" data-project-row={id} />;
  }
  const { project, unsent, managerName } = row;
  return (
    <li className="project-row" style={style} aria-posinset={position} aria-setsize={size} data-project-row={id} data-status={project.status} data-unsent={unsent ?? undefined}>
      <a href={paths.company.project(companyId, id)} className="project-row__link" data-nav="">
        <span className="project-row__title">{project.name}</span>
        <span className="project-row__meta">
          {managerName === null ? (
            <FormattedMessage id="projects.list.managerUnknown" defaultMessage="Project manager not on this device" />
          ) : (
            <FormattedMessage id="projects.list.manager" defaultMessage="Project manager: {name}" values={{ name: managerName }} />
          )}
        </span>
        <span className="project-row__state">
          <span className={`project-row__status project-row__status--${project.status.toLowerCase()}`}>{intl.formatMessage(STATUS_MESSAGES[project.status])}</span>
          <MoneyText project={project} />
          {unsent && <UnsentMark state={unsent} />}
        </span>
      </a>
    </li>
  );
});
