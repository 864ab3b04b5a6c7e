// The company's proposals for whoever reviews or follows them: "To review" (what waits on the user's
// decision), "Company" (others' proposals the user may see) and "All". Tab and filters live in the URL query,
// so a reload or the back button brings the same list back, and every row's link carries that URL as its
// back link. Reads only the mirror (works offline); the list is windowed, so 50,000 proposals scroll like 20.
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { useCurrentUser } from '../../../lib/app-state';
import { useFirstPullPending } from '../../../lib/sync/use-first-pull';
import { PageSpinner } from '../../../ui/spinner';
import { Tabs } from '../../../ui/tabs';
import { backLinkState } from '../back-link';
import { DueText } from '../components/due-text';
import { LIST_STATUS_MESSAGES, SuggestionFilters } from '../components/suggestion-filters';
import { UnsentMark } from '../components/unsent-mark';
import { filtersFromQuery, queryFromFilters, tabsFor, type ListFilters, type ListRow, type ListTab } from '../list';
import { useGoalOptions, useListViewer, useSuggestionIds, useSuggestionWindow } from '../list-hooks';
import '../suggestions.css';
import '../suggestions-list.css';
import { useRowNavigation, useVirtualWindow } from '../../../ui/virtual-window';

/** Every row has this height, so the list never measures (suggestions-list.css keeps to it). */
export const SUGGESTION_ROW_HEIGHT = 96;
/** The due texts count from a clock that moves this often. */
const CLOCK_STEP_MS = 60_000;

const TAB_MESSAGES = {
  review: { id: 'suggestions.list.tab.review', defaultMessage: 'To review' },
  company: { id: 'suggestions.list.tab.company', defaultMessage: 'Company' },
  all: { id: 'suggestions.list.tab.all', defaultMessage: 'All' },
} as const satisfies Record<ListTab, { id: string; defaultMessage: string }>;

export default function SuggestionsPage() {
  const intl = useIntl();
  const { companyId = '' } = useParams<{ companyId: string }>();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const viewer = useListViewer(companyId);
  const goals = useGoalOptions(companyId);
  const tabs = useMemo(() => (viewer ? tabsFor(viewer.member) : []), [viewer]);
  const filters = useMemo(() => filtersFromQuery(search, tabs), [search, tabs]);
  const list = useSuggestionIds(companyId, viewer?.member, filters);
  const firstPullPending = useFirstPullPending(useCurrentUser().id, companyId);

  const change = useCallback(
    (changes: Partial<ListFilters>) => {
      const next = { ...filters, ...changes };
      if (next.tab === 'review') next.status = null;
      // A new tab is a step back can return from; a refined filter replaces the entry.
      navigate(`${paths.company.suggestions(companyId)}${queryFromFilters(next, tabs)}`, { replace: changes.tab === undefined });
    },
    [companyId, filters, navigate, tabs],
  );

  if (!viewer || list === undefined) return <PageSpinner />;
  const { ids, isComplete, isCurrent, firstRows } = list;
  // No rows yet while the company's first pull is on its way: the list is loading, not empty (nor counted).
  const isLoading = ids.length === 0 && firstPullPending !== false;
  const backTo = `${location}${search === '' ? '' : `?${search}`}`;

  return (
    <section className="suggestions-page suggestions-list-page" aria-labelledby="suggestions-list-title">
      <p className="suggestions-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <div className="suggestions-page__head">
        <h1 className="suggestions-page__title" id="suggestions-list-title">
          <FormattedMessage id="suggestions.list.title" defaultMessage="Proposals" />
        </h1>
        <Link href={paths.company.mySuggestions(companyId)}>
          <FormattedMessage id="suggestions.list.mine" defaultMessage="My proposals" />
        </Link>
      </div>
      <Tabs
        label={intl.formatMessage({ id: 'suggestions.list.tabs', defaultMessage: 'Which proposals' })}
        tabs={tabs.map((tab) => ({ id: tab, title: intl.formatMessage(TAB_MESSAGES[tab]) }))}
        value={filters.tab}
        onChange={(tab) => change({ tab: tabs.find((known) => known === tab) ?? filters.tab })}
      >
        <SuggestionFilters filters={filters} onChange={change} departments={viewer.departments} goals={goals ?? []} />
        <p className="suggestions-list-page__count" aria-live="polite" data-count={isComplete && !isLoading ? ids.length : undefined} data-pending={isCurrent ? undefined : ''}>
          {isLoading ? null : isComplete ? (
            <FormattedMessage id="suggestions.list.count" defaultMessage="{count, plural, one {# proposal} other {# proposals}}" values={{ count: ids.length }} />
          ) : (
            <FormattedMessage id="suggestions.list.counting" defaultMessage="Counting the proposals…" />
          )}
        </p>
        {isLoading ? (
          <p className="suggestions-page__empty" data-empty="loading">
            <FormattedMessage id="suggestions.list.loading" defaultMessage="The company's proposals are loading…" />
          </p>
        ) : ids.length === 0 && isComplete ? (
          <p className="suggestions-page__empty" data-empty="">
            {filters.tab === 'review' ? (
              <FormattedMessage id="suggestions.list.emptyReview" defaultMessage="Nothing waits on your decision." />
            ) : (
              <FormattedMessage id="suggestions.list.empty" defaultMessage="No proposals match. If you expect some, connect once so the list can load." />
            )}
          </p>
        ) : (
          <SuggestionList companyId={companyId} ids={ids} firstRows={firstRows} departmentNames={viewer.departmentNames} backTo={backTo} />
        )}
      </Tabs>
    </section>
  );
}

interface SuggestionListProps {
  companyId: string;
  ids: readonly string[];
  /** Rows read with the first screen, shown until the window's own rows arrive. */
  firstRows: ReadonlyMap<string, ListRow>;
  departmentNames: ReadonlyMap<string, string>;
  backTo: string;
}

function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_STEP_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The windowed list: rows in view (and a few around) are in the page, their data read in chunks. */
function SuggestionList({ companyId, ids, firstRows, departmentNames, backTo }: SuggestionListProps) {
  const intl = useIntl();
  const { scrollRef, items, totalSize, windowIds } = useVirtualWindow(ids, SUGGESTION_ROW_HEIGHT);
  const now = useMinuteClock();
  const rows = useSuggestionWindow(companyId, windowIds);
  const onClick = useRowNavigation(backLinkState(backTo));

  return (
    <div
      className="suggestion-rows"
      ref={scrollRef}
      data-suggestion-list=""
      tabIndex={0}
      role="region"
      aria-label={intl.formatMessage({ id: 'suggestions.list.region', defaultMessage: 'Proposals, {count, plural, one {# proposal} other {# proposals}}' }, { count: ids.length })}
    >
      <ul className="suggestion-rows__inner" style={{ height: totalSize }} onClick={onClick}>
        {items.map((item) => {
          const id = ids[item.index];
          if (id === undefined) return null;
          const row = rows?.get(id) ?? firstRows.get(id);
          return (
            <SuggestionRow
              key={item.key}
              companyId={companyId}
              id={id}
              row={row}
              departmentName={row ? departmentNames.get(row.suggestion.departmentId) : undefined}
              top={item.start}
              position={item.index + 1}
              size={ids.length}
              now={now}
            />
          );
        })}
      </ul>
    </div>
  );
}

interface SuggestionRowProps {
  companyId: string;
  id: string;
  /** Undefined while its chunk is being read (or when the row left the mirror meanwhile). */
  row: ListRow | undefined;
  departmentName: string | undefined;
  top: number;
  position: number;
  size: number;
  now: Date;
}

const SuggestionRow = memo(function SuggestionRow({ companyId, id, row, departmentName, top, position, size, now }: SuggestionRowProps) {
  const intl = useIntl();
  const style = { height: SUGGESTION_ROW_HEIGHT, transform: `translateY(${top}px)` };
  if (!row) {
    return <li className="suggestion-row suggestion-row--loading" style={style} aria-posinset={position} aria-setsize={size} aria-busy="true" data-suggestion-row={id} />;
  }
  const { suggestion, unsent } = row;
  const meta = [suggestion.authorName, departmentName].filter((part): part is string => typeof part === 'string' && part !== '').join(' · ');
  return (
    <li className="suggestion-row" style={style} aria-posinset={position} aria-setsize={size} data-suggestion-row={id} data-status={suggestion.status} data-unsent={unsent ?? undefined}>
      <a href={paths.company.suggestion(companyId, id)} className="suggestion-row__link" data-nav="">
        <span className="suggestion-row__title">{suggestion.title}</span>
        <span className="suggestion-row__meta">{meta}</span>
        <span className="suggestion-row__state">
          <span className={`suggestion-row__status suggestion-row__status--${suggestion.status.toLowerCase()}`}>{intl.formatMessage(LIST_STATUS_MESSAGES[suggestion.status])}</span>
          <DueText dueAt={suggestion.dueAt} status={suggestion.status} now={now} />
          {unsent && <UnsentMark state={unsent} />}
        </span>
      </a>
    </li>
  );
});
