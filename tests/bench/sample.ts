// Rows for the benchmarks, in Node and in the browser harness alike (no Node modules here).
import type { Suggestion } from '../../src/domain/suggestion';

const TEXT = 'На участке сборки теряется время при переналадке оборудования; предлагаем стандартизировать оснастку. ';

/** A proposal as the pull delivers it, about 1.3 kB of JSON. */
export function sampleSuggestion(index: number, companyId: string, departmentId: string, authorId: string): Suggestion {
  const at = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
  const id = `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
  return {
    id,
    companyId,
    title: `Предложение ${index}`,
    problem: TEXT.repeat(3),
    solution: TEXT.repeat(3),
    expectedEffect: TEXT,
    effectEstimate: index % 2 === 0 ? { amountMinor: 1_000_00 * (index % 97), currency: 'RUB' } : null,
    departmentId,
    goalId: null,
    images: [],
    authorId,
    authorName: 'Иванов Иван Иванович',
    status: 'UNDER_CONSIDERATION',
    dueAt: new Date(Date.parse(at) + 5 * 86_400_000).toISOString(),
    submittedAt: at,
    receivedAt: at,
    reviewComment: null,
    history: [{ at, kind: 'SUBMITTED', byUserId: authorId, comment: null }],
    createdAt: at,
    updatedAt: at,
  };
}
