// A valid project body for the tests: the server's (fixtures.ts) and the browser tests' (tests/e2e/support/device.ts)
// create projects through the API with it. Free of the server's test support, so a browser test can import it.

/** A valid `ProjectInput` with `projectManagerEmployeeId` as its manager, overridden by `overrides`. */
export function projectBody(projectManagerEmployeeId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Быстрая переналадка',
    problem: 'Переналадка линии занимает 40 минут',
    imageIds: [],
    type: 'ORGANIZATIONAL',
    goalIds: [],
    baselineMetric: { value: 40, unitId: 'MINUTES' },
    targetMetric: { value: 15, unitId: 'MINUTES' },
    completionDate: '2027-03-31',
    reportingFrequency: 'MONTHLY',
    postMonitoringPeriodicity: 'QUARTERLY',
    projectManagerEmployeeId,
    team: [],
    currency: 'RUB',
    profitBasisPoints: 1000,
    maxPerProjectMinor: null,
    effectRepeatability: 'RECURRING',
    payments: [],
    ...overrides,
  };
}
