// The pull problem to show (src/lib/sync/problems.ts), for the layout: null while every pull went well.
import { useSyncExternalStore } from 'react';
import { getSyncProblem, subscribeSyncProblems, type SyncProblem } from './problems';

export function useSyncProblem(): SyncProblem | null {
  return useSyncExternalStore(subscribeSyncProblems, getSyncProblem, getSyncProblem);
}
