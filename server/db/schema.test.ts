import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateSchemaTypes, SCHEMA_FILE } from '../../scripts/db-types';

/** The first line where the two texts part, for a message short enough to read. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end of file)')}, migrations give ${JSON.stringify(b[at] ?? '(end of file)')}`;
}

describe('server/db/schema.ts', () => {
  it('holds the types of the migrations as they are (a new migration needs `npm run db:types`)', async () => {
    const [committed, generated] = await Promise.all([readFile(SCHEMA_FILE, 'utf8'), generateSchemaTypes()]);
    const stale = committed === generated ? null : `server/db/schema.ts is stale: run \`npm run db:types\` and commit it (${firstDifference(committed, generated)})`;
    expect(stale).toBeNull();
  }, 120_000); // a fresh PGlite and every migration: tens of seconds on a busy machine
});
