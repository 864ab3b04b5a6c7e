// What every route gets: configuration, database, mail, tokens, passwords and the user check.
// Built once per app in app.ts; routes receive it as an argument rather than through globals.

import type { Clock } from './clock';
import type { Config } from './config';
import type { Database } from './db/database';
import type { Mailer } from './mail/mailer';
import type { RequireUser } from './auth/require-user';
import type { TokenService } from './auth/tokens';
import { createDummyHash, hashPassword, needsRehash, verifyPassword } from './auth/passwords';

export interface PasswordService {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /** Spends one verification on a throw-away hash (unknown e-mail at sign-in). */
  spendOne(password: string): Promise<void>;
  needsRehash(hash: string): boolean;
}

export function createPasswordService(logN: number): PasswordService {
  const dummy = createDummyHash(logN);
  return {
    hash: (password) => hashPassword(password, logN),
    verify: verifyPassword,
    async spendOne(password) {
      await verifyPassword(password, await dummy());
    },
    needsRehash: (hash) => needsRehash(hash, logN),
  };
}

export interface AppContext {
  config: Config;
  /** "Now" for schedules, deadlines and rate limits; tests pass a clock they move by hand. */
  clock: Clock;
  db: Database;
  mailer: Mailer;
  tokens: TokenService;
  passwords: PasswordService;
  requireUser: RequireUser;
}
