// The review list's queries over the device's mirror (React-free, so they are tested on fake-indexeddb and
// timed in the bench). Guarantees:
// - nothing reads a whole table: the order comes from index scans that yield primary keys (the status index
//   with its due date, or per department the status-department index with its due date, ranges merged by due
//   date), every other filter is a key set from its own index (search: the multi-entry `searchWords` index),
//   except that the first screen checks a common search word on the rows it reads in order (at most
//   ROW_BUDGET of them), and rows are otherwise read only for the window on screen (`loadSuggestionWindow`);
// - only the signed-in user's rows of that company are listed (every index leads with owner and company; the
//   search index is not scoped, so its keys are checked against the owner and the company's key set);
// - the order: proposals under consideration by due date, earliest first, so the overdue ones lead; then those
//   waiting on their author (clock paused) by due date; then decided ones by due date, latest first: the most
//   recently received on top. Decision dates have no index, and a proposal's due date is its receipt plus five
//   days, so this reads as "newest first" without reading the rows. Each part is one index scan, so the first
//   screen of a long list can be read with limited scans before the whole list is counted.
// What the user may see is the server's business: the mirror holds only that. The tabs narrow it: "review"
// to what the user may decide (canReviewSuggestion), "company" to others' proposals, "all" to everything.
import Dexie, { type Collection } from 'dexie';
import { canReviewSuggestion, type MemberView } from '../../domain/permissions';
import { OPEN_SUGGESTION_STATUSES, SUGGESTION_STATUSES, Suggestion, type SuggestionStatus } from '../../domain/suggestion';
import { normalizeSearchText, searchWordsOf, type AppDatabase, type OutboxStatus, type StoredSuggestion } from '../../lib/db/database';
import { checkRows } from '../../lib/db/rows';
import { unsentRowsByKey } from '../../lib/outbox/entity-state';
import { entityKeyOf } from '../../lib/outbox/outbox';

export const LIST_TABS = ['review', 'company', 'all'] as const;
export type ListTab = (typeof LIST_TABS)[number];

export interface ListFilters {
  tab: ListTab;
  status: SuggestionStatus | null;
  departmentId: string | null;
  goalId: string | null;
  /** Under consideration and past the due date. */
  isOverdueOnly: boolean;
  /** Words of the title or problem, each matched as a prefix of a word (any case, ё as е). */
  query: string;
}

export const NO_FILTERS: Omit<ListFilters, 'tab'> = { status: null, departmentId: null, goalId: null, isOverdueOnly: false, query: '' };

/** A department no member heads (no id is empty): what the shared rule says of it holds for every department. */
const ANY_OTHER_DEPARTMENT = { departmentId: '' };

/** Whether the member may decide proposals of every department, not only of those they head (OWNER, CEO). */
export function mayReviewEveryDepartment(member: MemberView): boolean {
  return canReviewSuggestion(member, ANY_OTHER_DEPARTMENT);
}

/** Whether the member may decide anything at all: heads a department, or may step in everywhere. */
export function mayReviewAny(member: MemberView): boolean {
  return mayReviewEveryDepartment(member) || member.headOfDepartmentIds.some((departmentId) => canReviewSuggestion(member, { departmentId }));
}

/** The tabs the member gets: no "To review" for one who may decide nothing. */
export function tabsFor(member: MemberView): ListTab[] {
  return mayReviewAny(member) ? ['review', 'company', 'all'] : ['company', 'all'];
}

// ---------------------------------------------------------------------------------------------------
// The URL query: `?tab=review&status=APPROVED&department=<id>&goal=<id>&overdue=1&q=words`.

const isListTab = (value: string | null): value is ListTab => LIST_TABS.some((tab) => tab === value);
const isStatus = (value: string | null): value is SuggestionStatus => SUGGESTION_STATUSES.some((status) => status === value);

/** The filters a URL query asks for; unknown values are ignored, a tab the member does not get gives the first. */
export function filtersFromQuery(search: string, tabs: readonly ListTab[]): ListFilters {
  const params = new URLSearchParams(search);
  const tab = params.get('tab');
  const text = (name: string) => {
    const value = params.get(name)?.trim() ?? '';
    return value === '' ? null : value.slice(0, 200);
  };
  const status = params.get('status');
  const chosenTab = isListTab(tab) && tabs.includes(tab) ? tab : (tabs[0] ?? 'all');
  return {
    tab: chosenTab,
    // "To review" holds proposals under consideration only: it has no status filter.
    status: isStatus(status) && chosenTab !== 'review' ? status : null,
    departmentId: text('department'),
    goalId: text('goal'),
    isOverdueOnly: params.get('overdue') === '1',
    query: (params.get('q') ?? '').slice(0, 200),
  };
}

/** The URL query of these filters (the default tab is left out, so the plain list URL stays plain). */
export function queryFromFilters(filters: ListFilters, tabs: readonly ListTab[]): string {
  const params = new URLSearchParams();
  if (filters.tab !== tabs[0]) params.set('tab', filters.tab);
  if (filters.status) params.set('status', filters.status);
  if (filters.departmentId) params.set('department', filters.departmentId);
  if (filters.goalId) params.set('goal', filters.goalId);
  if (filters.isOverdueOnly) params.set('overdue', '1');
  if (filters.query.trim() !== '') params.set('q', filters.query);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

// ---------------------------------------------------------------------------------------------------
// Key scans.

type Key = [string, string];
const idOf = (key: unknown): string | null => (Array.isArray(key) && typeof key[1] === 'string' ? key[1] : null);

function idsOf(keys: readonly unknown[]): string[] {
  const ids: string[] = [];
  for (const key of keys) {
    const id = idOf(key);
    if (id !== null) ids.push(id);
  }
  return ids;
}

/** Primary keys of a compound index's range `[...prefix, lower..upper)`, in index order. */
async function scan(db: AppDatabase, index: string, prefix: readonly string[], upper?: string): Promise<string[]> {
  const keys = await db.suggestions
    .where(index)
    .between([...prefix, Dexie.minKey], [...prefix, upper ?? Dexie.maxKey], true, upper === undefined)
    .primaryKeys();
  return idsOf(keys);
}

async function idSet(db: AppDatabase, index: string, prefixes: readonly (readonly string[])[]): Promise<Set<string>> {
  const lists = await Promise.all(prefixes.map((prefix) => scan(db, index, prefix)));
  return new Set(lists.flat());
}

/** The words of a query, as the stored search words hold them. */
export function queryWords(query: string): string[] {
  return searchWordsOf(normalizeSearchText(query));
}

/** Proposals of the user having, for every word of the query, a word that starts with it. */
async function searchIds(db: AppDatabase, ownerUserId: string, words: readonly string[]): Promise<Set<string>> {
  let result: Set<string> | null = null;
  // Longest words first: they match fewest rows, and an empty result ends the search.
  for (const word of [...words].sort((a, b) => b.length - a.length)) {
    const keys = await db.suggestions.where('searchWords').startsWith(word).primaryKeys();
    const matched = new Set<string>();
    for (const key of keys as unknown[]) {
      if (Array.isArray(key) && key[0] === ownerUserId && typeof key[1] === 'string' && (result === null || result.has(key[1]))) matched.add(key[1]);
    }
    result = matched;
    if (result.size === 0) break;
  }
  return result ?? new Set();
}

export interface ListContext {
  db: AppDatabase;
  /** Keys per chunk when a part of the list is read a chunk at a time (tests use small chunks). */
  keyChunk?: number;
  /** A search word with more keys is checked on the first screen's rows (WORD_KEYS_MAX; tests use less). */
  wordKeysMax?: number;
  /** Rows checked for common search words before their key sets are read (ROW_BUDGET; tests use less). */
  rowBudget?: number;
  /** The signed-in user, whose mirror is read. */
  member: MemberView;
  companyId: string;
  now: Date;
}

const DECIDED: readonly SuggestionStatus[] = SUGGESTION_STATUSES.filter((status) => !OPEN_SUGGESTION_STATUSES.includes(status));

/** Primary keys of `[...prefix, *]` (or up to `upper`, exclusive) in index order, at most `limit` of them. */
function rangeOf(db: AppDatabase, index: string, prefix: readonly string[], upper: string | undefined, limit: number | undefined, isBackwards = false) {
  let collection = db.suggestions.where(index).between([...prefix, Dexie.minKey], [...prefix, upper ?? Dexie.maxKey], true, upper === undefined);
  if (isBackwards) collection = collection.reverse();
  if (limit !== undefined) collection = collection.limit(limit);
  return collection;
}

async function scanLimited(db: AppDatabase, index: string, prefix: readonly string[], upper: string | undefined, limit: number | undefined, isBackwards = false): Promise<string[]> {
  return idsOf(await rangeOf(db, index, prefix, upper, limit, isBackwards).primaryKeys());
}

/**
 * The first `limit` ids of several statuses together, latest due date first: each status's own first `limit`
 * (ids and their index keys, which hold the due date), merged.
 */
async function latestOfStatuses(db: AppDatabase, company: readonly string[], statuses: readonly SuggestionStatus[], limit: number): Promise<string[]> {
  const index = '[ownerUserId+companyId+status+dueAt]';
  const parts = await Promise.all(
    statuses.map(async (status) => {
      const range = () => rangeOf(db, index, [...company, status], undefined, limit, true);
      const [ids, keys] = await Promise.all([range().primaryKeys(), range().keys()]);
      return idsOf(ids).map((id, i): DueKey => {
        const key: unknown = keys[i];
        return { id, dueAt: Array.isArray(key) && typeof key[3] === 'string' ? key[3] : '' };
      });
    }),
  );
  return parts
    .flat()
    .sort((a, b) => (isLater(a, b) ? -1 : isLater(b, a) ? 1 : 0))
    .slice(0, limit)
    .map((part) => part.id);
}

/**
 * The ids of the proposals the list shows, in its order (see the header). Reads index keys only, and rows only
 * to check search words while the first screen is read (see below). With `limit`, only the first `limit` ids:
 * what the first screen needs, read with limited scans, so the first rows show before the whole list is counted.
 * A department (the department filter, or the departments a head heads on "To review") is a range of the
 * status-department-due-date index per status and department, merged by due date, so it costs no key set.
 * Search words: each word's keys are counted first (a word no proposal has ends the search at once); for the
 * first screen, a word held by more than WORD_KEYS_MAX keys is not read as a key set but checked on the rows
 * read in list order (a common word fills a screen within a few hundred rows), until ROW_BUDGET rows were
 * checked; then its key set is read after all.
 */
export async function listSuggestionIds({ db, member, companyId, now, keyChunk = KEY_CHUNK, wordKeysMax = WORD_KEYS_MAX, rowBudget = ROW_BUDGET }: ListContext, filters: ListFilters, limit?: number): Promise<string[]> {
  const owner = member.userId;
  const company = [owner, companyId] as const;

  // The statuses the list may hold ("review" and "overdue" mean under consideration only).
  const statuses = new Set<SuggestionStatus>(filters.status ? [filters.status] : SUGGESTION_STATUSES);
  if (filters.tab === 'review' || filters.isOverdueOnly) {
    for (const status of [...statuses]) if (status !== 'UNDER_CONSIDERATION') statuses.delete(status);
  }
  if (statuses.size === 0) return [];

  // The departments the list is limited to, null for every one.
  let departments: string[] | null = filters.departmentId ? [filters.departmentId] : null;
  if (filters.tab === 'review' && !mayReviewEveryDepartment(member)) {
    // A head decides only in the departments they head.
    const headed = member.headOfDepartmentIds.filter((departmentId) => canReviewSuggestion(member, { departmentId }));
    departments = departments === null ? [...new Set(headed)] : departments.filter((departmentId) => headed.includes(departmentId));
  }
  if (departments?.length === 0) return [];

  // Search words, rarest first; one no proposal has leaves nothing to list.
  const words = await countWords(db, owner, queryWords(filters.query), wordKeysMax);
  if (words.some(({ count }) => count === 0)) return [];
  // The whole list reads every word's key set; the first screen checks common words on its rows.
  const rowWords = limit === undefined ? [] : words.filter(({ ids }) => ids === null).map(({ word }) => word);
  const wordSets = words.flatMap(({ ids }) => (ids ? [Promise.resolve(ids)] : []));
  const unreadWords = limit === undefined ? words.filter(({ ids }) => ids === null).map(({ word }) => word) : [];

  // Every other filter is a set of ids a row must be in (or, for "company", must not be in).
  const required: Promise<Set<string>>[] = [];
  if (filters.goalId) required.push(idSet(db, '[ownerUserId+companyId+goalId+dueAt]', [[...company, filters.goalId]]));
  required.push(...wordSets);
  if (unreadWords.length > 0) required.push(searchIds(db, owner, unreadWords));
  const excluded =
    filters.tab === 'company'
      ? db.suggestions
          .where('[ownerUserId+companyId+authorId]')
          .equals([...company, owner])
          .primaryKeys()
          .then((keys) => new Set(idsOf(keys)))
      : Promise.resolve(new Set<string>());
  const hasSets = required.length > 0 || filters.tab === 'company';
  const upper = filters.isOverdueOnly ? now.toISOString() : undefined;
  const sets = Promise.all([Promise.all(required), excluded]).then(([all, without]) => ({ all: all.sort((a, b) => a.size - b.size), without }));
  const keep = async (ids: readonly string[]): Promise<string[]> => {
    if (!hasSets) return [...ids];
    const { all, without } = await sets;
    return ids.filter((id) => all.every((set) => set.has(id)) && !without.has(id));
  };

  // The order: under consideration by due date, then waiting on the author by due date, then decided ones,
  // latest due date first. Each part is an index scan; with a limit, later parts are read only when needed.
  const open = OPEN_SUGGESTION_STATUSES.filter((status) => statuses.has(status));
  const decided = DECIDED.filter((status) => statuses.has(status));
  const { all, without } = await sets;
  const isKept = (id: string) => all.every((set) => set.has(id)) && !without.has(id);
  const isShown = (row: Suggestion) =>
    statuses.has(row.status) && (upper === undefined || row.dueAt < upper) && (departments === null || departments.includes(row.departmentId)) && isKept(row.id);
  const few = async (ids: Iterable<string>, withWords: readonly string[]) => {
    const ordered = await orderFew(db, owner, companyId, [...ids], withWords, isShown);
    return limit === undefined ? ordered : ordered.slice(0, limit);
  };
  // A filter that leaves few proposals (a rare word, a small goal): order those rows themselves.
  const smallest = all[0];
  if (smallest && smallest.size <= FEW_ROWS) return await few(smallest, rowWords);
  if (departments !== null || (limit !== undefined && (hasSets || rowWords.length > 0))) {
    // The parts read as merged ranges, a chunk at a time (or whole, for the whole list), filtered as they come.
    const chunk = limit === undefined ? undefined : hasSets ? keyChunk : rowWords.length > 0 ? Math.min(keyChunk, limit * 5) : limit;
    const byStatus = '[ownerUserId+companyId+status+dueAt]';
    const byDepartment = '[ownerUserId+companyId+status+departmentId+dueAt]';
    const ranges = (status: SuggestionStatus, end: string | undefined, isBackwards: boolean) =>
      departments === null ? [rangeKeys(db, byStatus, [...company, status], end, isBackwards, chunk)] : departments.map((departmentId) => rangeKeys(db, byDepartment, [...company, status, departmentId], end, isBackwards, chunk));
    const parts = [...open.map((status) => merge(ranges(status, upper, false), false)), merge(decided.flatMap((status) => ranges(status, undefined, true)), true)];
    const ids = (async function* () {
      for (const part of parts) for await (const { id } of part) if (isKept(id)) yield id;
    })();
    if (rowWords.length === 0 || limit === undefined) return await take(ids, limit);
    return await takeWithWords({ db, owner, ids, words: rowWords, limit, rowBudget, few: (matching) => few(matching, []) });
  }
  const result: string[] = [];
  const room = () => (limit === undefined ? undefined : limit - result.length);
  for (const status of open) {
    if (room() === 0) break;
    result.push(...(await keep(await scanLimited(db, '[ownerUserId+companyId+status+dueAt]', [...company, status], upper, room()))));
  }
  if (decided.length > 0 && room() !== 0) {
    let ids: string[];
    const left = room();
    if (decided.length === 1) {
      const [status] = decided as [SuggestionStatus];
      ids = await scanLimited(db, '[ownerUserId+companyId+status+dueAt]', [...company, status], undefined, left, true);
    } else if (left !== undefined) {
      ids = await latestOfStatuses(db, company, decided, left);
    } else {
      // Several decided statuses, one order: the due-date index backwards, without the open ones.
      const openIds = idSet(db, '[ownerUserId+companyId+status+dueAt]', OPEN_SUGGESTION_STATUSES.map((status) => [...company, status]));
      const [everything, openSet] = await Promise.all([scanLimited(db, '[ownerUserId+companyId+dueAt]', [...company], undefined, undefined), openIds]);
      ids = everything.reverse().filter((id) => !openSet.has(id));
    }
    result.push(...(await keep(ids)));
  }
  return limit === undefined ? result : result.slice(0, limit);
}

/** The first `limit` ids of a sequence (all of them without a limit). */
async function take(ids: AsyncIterable<string>, limit: number | undefined): Promise<string[]> {
  const result: string[] = [];
  if (limit === 0) return result;
  for await (const id of ids) {
    result.push(id);
    if (limit !== undefined && result.length >= limit) break;
  }
  return result;
}

/** A word of a query, and its keys of the search index (every user's) when it has at most WORD_KEYS_MAX. */
interface WordCount {
  word: string;
  /** The word's keys, up to WORD_KEYS_MAX + 1 (so more than WORD_KEYS_MAX means "common"). */
  count: number;
  /** The ids of the signed-in user's proposals having the word, when all its keys were read. */
  ids: Set<string> | null;
}

/**
 * The words with their key counts, fewest first, each read up to WORD_KEYS_MAX + 1 keys (IndexedDB's own
 * count walks the whole range and costs about half a read, so a capped read is cheaper for common words).
 */
async function countWords(db: AppDatabase, ownerUserId: string, words: readonly string[], most: number): Promise<WordCount[]> {
  const counted = await Promise.all(
    words.map(async (word): Promise<WordCount> => {
      const keys: unknown[] = await db.suggestions
        .where('searchWords')
        .startsWith(word)
        .limit(most + 1)
        .primaryKeys();
      return { word, count: keys.length, ids: keys.length > most ? null : ownIds(keys, ownerUserId) };
    }),
  );
  return counted.sort((a, b) => a.count - b.count);
}

/** The ids of these search-index primary keys that are the user's. */
function ownIds(keys: readonly unknown[], ownerUserId: string): Set<string> {
  const ids = new Set<string>();
  for (const key of keys) if (Array.isArray(key) && key[0] === ownerUserId && typeof key[1] === 'string') ids.add(key[1]);
  return ids;
}

/** A word held by more keys than this is common: the first screen checks it on rows, not as a key set. */
const WORD_KEYS_MAX = 1000;
/** Rows checked for common words before their key sets are read after all. */
const ROW_BUDGET = 600;

/** Whether the stored proposal has, for every word, a search word that starts with it. */
function hasWords(row: StoredSuggestion, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const own = Array.isArray(row.searchWords) ? row.searchWords : searchWordsOf(row.title, row.problem);
  return words.every((word) => own.some((held) => typeof held === 'string' && held.startsWith(word)));
}

interface WordCheck {
  db: AppDatabase;
  owner: string;
  /** The list's ids in its order, other filters applied. */
  ids: AsyncIterable<string>;
  words: readonly string[];
  limit: number;
  rowBudget: number;
  /** The list of these ids (few: at most FEW_ROWS), ordered from their rows, other filters applied. */
  few: (ids: ReadonlySet<string>) => Promise<string[]>;
}

/**
 * The first `limit` of these ids whose rows have every word, the rows read a batch at a time (a batch sized by
 * how many rows matched so far). After ROW_BUDGET rows (or sooner, when the rate so far would take it far past
 * that) the words' key sets are read instead, so a query whose
 * words are common but rare together does not read the whole list's rows: few matches are ordered from their
 * rows, more are looked up while the walk goes on.
 */
async function takeWithWords({ db, owner, ids, words, limit, rowBudget, few }: WordCheck): Promise<string[]> {
  const result: string[] = [];
  let checked = 0;
  let batch: string[] = [];
  let matching: Set<string> | null = null;
  const batchSize = () => {
    const rate = checked === 0 ? 0.25 : Math.max(result.length / checked, 0.02);
    return Math.min(rowBudget, Math.max(Math.min(30, rowBudget), Math.ceil(((limit - result.length) / rate) * 1.25)));
  };
  const check = async () => {
    const rows = await db.suggestions.bulkGet(batch.map((id): Key => [owner, id]));
    rows.forEach((row, i) => {
      const id = batch[i];
      if (row && id !== undefined && result.length < limit && hasWords(row, words)) result.push(id);
    });
    checked += batch.length;
    batch = [];
  };
  for await (const id of ids) {
    if (matching) {
      if (matching.has(id)) result.push(id);
    } else {
      batch.push(id);
      if (batch.length < batchSize()) continue;
      await check();
      // Past the budget, or when the rate so far would take the walk far past it: the key sets instead.
      const needs = (limit - result.length) / Math.max(result.length / checked, Number.MIN_VALUE);
      if (result.length < limit && (checked >= rowBudget || checked + needs > 2 * rowBudget)) {
        matching = await searchIds(db, owner, words);
        if (matching.size <= FEW_ROWS) return await few(matching);
      }
    }
    if (result.length >= limit) break;
  }
  if (batch.length > 0 && result.length < limit) await check();
  return result;
}

/** Up to this many proposals left by a filter are read and ordered as rows, instead of scanning the parts. */
const FEW_ROWS = 300;

const PART_OF: Record<SuggestionStatus, number> = { UNDER_CONSIDERATION: 0, CLARIFICATION: 1, APPROVED: 2, REJECTED: 2 };

/** These proposals' ids in the list's order (see the header), those having `words` that `isShown` accepts only. */
async function orderFew(db: AppDatabase, owner: string, companyId: string, ids: readonly string[], words: readonly string[], isShown: (row: Suggestion) => boolean): Promise<string[]> {
  const stored = (await db.suggestions.bulkGet(ids.map((id): Key => [owner, id]))).filter((row) => row !== undefined && hasWords(row, words));
  const rows = checkRows(Suggestion, stored, 'suggestions').rows.filter((row) => row.companyId === companyId && isShown(row));
  const at = (row: Suggestion): DueKey => ({ id: row.id, dueAt: row.dueAt });
  return rows
    .sort((a, b) => {
      const part = PART_OF[a.status] - PART_OF[b.status];
      if (part !== 0) return part;
      // Open parts by due date, earliest first; decided ones latest first (the due-date index read backwards).
      const [first, second] = PART_OF[a.status] === 2 ? [b, a] : [a, b];
      return isLater(at(first), at(second)) ? 1 : isLater(at(second), at(first)) ? -1 : 0;
    })
    .map((row) => row.id);
}

/** Keys read per chunk when a part of the list is read a chunk at a time. */
const KEY_CHUNK = 1000;

interface DueKey {
  id: string;
  dueAt: string;
}

/**
 * One status's ids with their due dates, in due-date order (or backwards), read a chunk at a time: each chunk
 * starts at the last due date seen (inclusive; the ids seen at that date are skipped).
 */
async function* rangeKeys(db: AppDatabase, index: string, prefix: readonly string[], upper: string | undefined, isBackwards: boolean, chunk: number | undefined): AsyncGenerator<DueKey> {
  // The due date is the index key's part after the prefix.
  const at = prefix.length;
  // Where the next chunk starts: the last due date read, inclusive (its ids seen so far skipped) or exclusive.
  let bound: string | null = null;
  let isBoundExclusive = false;
  let seenAtBound = new Set<string>();
  for (;;) {
    const start: unknown = bound ?? (isBackwards ? (upper ?? Dexie.maxKey) : Dexie.minKey);
    const end: unknown = isBackwards ? Dexie.minKey : (upper ?? Dexie.maxKey);
    const isStartIncluded: boolean = bound === null ? !(isBackwards && upper !== undefined) : !isBoundExclusive;
    const isEndIncluded = isBackwards || upper === undefined;
    let collection: Collection<StoredSuggestion, [string, string]> = isBackwards
      ? db.suggestions.where(index).between([...prefix, end], [...prefix, start], isEndIncluded, isStartIncluded).reverse()
      : db.suggestions.where(index).between([...prefix, start], [...prefix, end], isStartIncluded, isEndIncluded);
    if (chunk !== undefined) collection = collection.limit(chunk);
    const [ids, keys]: [unknown[], unknown[]] = await Promise.all([collection.primaryKeys(), collection.keys()]);
    let fresh = 0;
    let last: string | null = null;
    const seenAtLast = new Set<string>();
    for (let i = 0; i < ids.length; i += 1) {
      const id = idOf(ids[i]);
      const key: unknown = keys[i];
      const dueAt: string | null = Array.isArray(key) && typeof key[at] === 'string' ? key[at] : null;
      if (id === null || dueAt === null) continue;
      if (dueAt !== last) seenAtLast.clear();
      seenAtLast.add(id);
      last = dueAt;
      if (dueAt === bound && seenAtBound.has(id)) continue;
      fresh += 1;
      yield { id, dueAt };
    }
    if (chunk === undefined || ids.length < chunk || last === null) return;
    if (fresh === 0) {
      // A whole chunk at one due date already seen: more than a chunk share it. Read that date at once, go past it.
      const atLast = db.suggestions.where(index).equals([...prefix, last]);
      const all = idsOf(await (isBackwards ? atLast.reverse() : atLast).primaryKeys());
      for (const id of all) if (!seenAtBound.has(id)) yield { id, dueAt: last };
      bound = last;
      isBoundExclusive = true;
      seenAtBound = new Set();
      continue;
    }
    seenAtBound = last === bound ? new Set([...seenAtBound, ...seenAtLast]) : new Set(seenAtLast);
    bound = last;
    isBoundExclusive = false;
  }
}

/** The order of the due-date index read backwards: later due date first, then (as the primary key) later id. */
function isLater(a: DueKey, b: DueKey): boolean {
  return a.dueAt > b.dueAt || (a.dueAt === b.dueAt && a.id > b.id);
}

/** Several due-date-ordered sequences as one: earliest due date first, or latest first when `isBackwards`. */
async function* merge(parts: AsyncGenerator<DueKey>[], isBackwards: boolean): AsyncGenerator<DueKey> {
  if (parts.length === 1 && parts[0]) {
    yield* parts[0];
    return;
  }
  const heads = await Promise.all(parts.map((part) => part.next()));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i += 1) {
      const head = heads[i];
      if (!head || head.done) continue;
      const current = best >= 0 ? heads[best] : undefined;
      if (!current || current.done || (isBackwards ? isLater(head.value, current.value) : isLater(current.value, head.value))) best = i;
    }
    const chosen = heads[best];
    const part = parts[best];
    if (best < 0 || !chosen || chosen.done || !part) return;
    yield chosen.value;
    heads[best] = await part.next();
  }
}

// ---------------------------------------------------------------------------------------------------
// The rows on screen.

export interface ListRow {
  suggestion: Suggestion;
  /** The state of the user's unsent change of it, null when none. */
  unsent: OutboxStatus | null;
}

/**
 * The rows of these ids (one bulkGet), checked with their struct, and the user's unsent changes of them (the
 * most troubled one each). An id whose row is gone or unreadable is missing from the map.
 */
export async function loadSuggestionWindow(db: AppDatabase, ownerUserId: string, companyId: string, ids: readonly string[]): Promise<Map<string, ListRow>> {
  if (ids.length === 0) return new Map();
  const keys: Key[] = ids.map((id) => [ownerUserId, id]);
  const entityKeys = ids.map((id) => entityKeyOf('suggestions', id));
  const [stored, unsent] = await Promise.all([db.suggestions.bulkGet(keys), unsentRowsByKey(db, ownerUserId, entityKeys)]);
  const present = stored.filter((row) => row !== undefined);
  const rows = new Map<string, ListRow>();
  for (const suggestion of checkRows(Suggestion, present, 'suggestions').rows) {
    if (suggestion.companyId !== companyId) continue;
    rows.set(suggestion.id, { suggestion, unsent: unsent.get(entityKeyOf('suggestions', suggestion.id))?.status ?? null });
  }
  return rows;
}

/** Whether any of the company's proposals points at this goal (one key read). */
export async function hasSuggestionsOfGoal(db: AppDatabase, ownerUserId: string, companyId: string, goalId: string): Promise<boolean> {
  const first = await db.suggestions
    .where('[ownerUserId+companyId+goalId+dueAt]')
    .between([ownerUserId, companyId, goalId, Dexie.minKey], [ownerUserId, companyId, goalId, Dexie.maxKey])
    .limit(1)
    .primaryKeys();
  return first.length > 0;
}
