// What the project screens read. Reads go through `useLiveQuery` over the device's mirror only (they work
// offline); stored rows are checked with their structs before use.
import { useLiveQuery } from 'dexie-react-hooks';
import { Suggestion } from '../../domain/suggestion';
import { useCurrentUser } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import { checkRows } from '../../lib/db/rows';

/** The proposal a new project is made from, as the project form shows it. */
export interface CarriedSuggestion {
  id: string;
  title: string;
  problem: string;
  authorName: string;
  photoCount: number;
  isApproved: boolean;
}

/**
 * The proposal `suggestionId` of the company from the mirror; null when it is not on the device (or belongs to
 * another company), undefined while loading.
 */
export function useCarriedSuggestion(companyId: string, suggestionId: string | null): CarriedSuggestion | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    if (suggestionId === null || suggestionId === '') return null;
    const stored = await getAppDatabase().suggestions.get([userId, suggestionId]);
    const suggestion = stored ? checkRows(Suggestion, [stored], 'suggestions').rows[0] : undefined;
    if (!suggestion || suggestion.companyId !== companyId) return null;
    return {
      id: suggestion.id,
      title: suggestion.title,
      problem: suggestion.problem,
      authorName: suggestion.authorName,
      photoCount: suggestion.images.length,
      isApproved: suggestion.status === 'APPROVED',
    };
  }, [userId, companyId, suggestionId]);
}
