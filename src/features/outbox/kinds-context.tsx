// The app's outbox kinds as the Unsent screen reads them: given by src/app (a feature does not import the
// app), either around the page (`withOutboxKinds`, used by the route) or higher up (`OutboxKindsProvider`).
import { createContext, useContext, type ReactNode } from 'react';
import { describeAnyUnsentRow, type DescribeUnsentRow } from './kinds';

const OutboxKindsContext = createContext<DescribeUnsentRow>(describeAnyUnsentRow);

export function OutboxKindsProvider({ describe, children }: { describe: DescribeUnsentRow; children: ReactNode }) {
  return <OutboxKindsContext.Provider value={describe}>{children}</OutboxKindsContext.Provider>;
}

/** How to show a row; without a provider every row is "A change". */
export function useDescribeUnsentRow(): DescribeUnsentRow {
  return useContext(OutboxKindsContext);
}
