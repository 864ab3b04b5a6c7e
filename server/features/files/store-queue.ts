// How many uploads are stored at once. Storing one is where its bytes are copied again (the driver's
// parameter, the protocol message, the database's own copy) and where it holds a database connection for
// its transaction; at most `concurrency` of them do so at a time, the others wait in arrival order holding
// only the one buffer they were received into. So N parallel uploads cost N received files plus
// `concurrency` stores, not N stores, and cannot take every connection of the pool. A task that fails frees
// its slot like one that succeeds.

export interface StoreQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Stores running and waiting, for tests. */
  stats(): { running: number; waiting: number };
}

/** Two: PGlite runs one transaction at a time anyway, and on PostgreSQL a second overlaps the first's network time. */
export const UPLOAD_STORE_CONCURRENCY = 2;

export function createStoreQueue(concurrency = UPLOAD_STORE_CONCURRENCY): StoreQueue {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    // The slot passes straight to the next task, so `running` never dips and lets a newcomer jump the line.
    if (next) next();
    else running--;
  };
  return {
    async run(task) {
      if (running < concurrency) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    stats: () => ({ running, waiting: waiting.length }),
  };
}
