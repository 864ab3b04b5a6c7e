// What every route gets: configuration, clock, database, the job runner, tokens, passwords and the user check.
// Built once per app in app.ts; routes receive it as an argument rather than through globals.

import type { Clock } from './clock';
import type { Config } from './config';
import type { Database } from './db/database';
import type { JobRunner } from './jobs/runner';
import type { RequireUser } from './auth/require-user';
import type { TokenService } from './auth/tokens';
import { dummyHash, hashPassword, needsRehash, scryptKey, verifyPassword, type DeriveKey } from './auth/passwords';
import { createHashQueue, type HashPriority, type HashQueue } from './auth/hash-queue';

/** Every password derivation of the app, through one bounded queue (auth/hash-queue.ts says what it guarantees). */
export interface PasswordService {
  /** Hashes a new password; `other` priority unless it is part of a sign-in (re-hashing at a raised cost). */
  hash(password: string, priority?: HashPriority): Promise<string>;
  /** Checks a password at sign-in priority. */
  verify(password: string, hash: string): Promise<boolean>;
  /** Spends one verification on a throw-away hash (unknown e-mail at sign-in), at sign-in priority. */
  spendOne(password: string): Promise<void>;
  needsRehash(hash: string): boolean;
  readonly queue: HashQueue;
}

export interface PasswordServiceOptions {
  /** Default: a queue with the bounds of defaultHashQueueOptions(). */
  queue?: HashQueue;
  /** Default: scrypt; tests pass an instrumented one to watch the order and number of derivations. */
  derive?: DeriveKey;
}

export function createPasswordService(logN: number, { queue = createHashQueue(), derive = scryptKey }: PasswordServiceOptions = {}): PasswordService {
  const dummy = dummyHash(logN);
  return {
    hash: (password, priority = 'other') => queue.run(priority, () => hashPassword(password, logN, derive)),
    verify: (password, hash) => queue.run('signIn', () => verifyPassword(password, hash, derive)),
    async spendOne(password) {
      await queue.run('signIn', () => verifyPassword(password, dummy, derive));
    },
    needsRehash: (hash) => needsRehash(hash, logN),
    queue,
  };
}

export interface AppContext {
  config: Config;
  /** "Now" for schedules, deadlines and rate limits; tests pass a clock they move by hand. */
  clock: Clock;
  db: Database;
  /** Work done once across nodes (mail among it): wake() it after a transaction that enqueued a job or a mail. */
  jobs: JobRunner;
  tokens: TokenService;
  passwords: PasswordService;
  requireUser: RequireUser;
}
