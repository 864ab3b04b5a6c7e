import { randomUUID } from 'node:crypto';
import type { ColumnType } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from './schema';
import { createTestDatabase, type TestDatabase } from '../test-support';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.query(`CREATE TABLE kysely_probe (
    id int PRIMARY KEY,
    big int8 NOT NULL,
    amount numeric NOT NULL,
    at timestamptz NOT NULL,
    day date NOT NULL,
    doc jsonb NOT NULL,
    bytes bytea NOT NULL,
    tags text[] NOT NULL
  )`);
});
afterAll(() => database.close());

// The shapes schema.ts gives these column types (a type alias: withTables wants an index-signature-compatible shape).
type Probe = {
  kysely_probe: {
    id: number;
    big: ColumnType<string, string, string>;
    amount: ColumnType<string, string, string>;
    at: ColumnType<Date, Date, Date>;
    day: ColumnType<Date, Date, Date>;
    doc: ColumnType<JsonValue, string, string>;
    bytes: Uint8Array;
    tags: string[];
  };
};
const probe = () => database.db.kysely.withTables<Probe>();

async function companyId(): Promise<string> {
  const row = await database.db.kysely.insertInto('companies').values({ name: 'Probe' }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

describe('typed queries (Kysely) on our Database', () => {
  it('return the JavaScript types of the generated schema on both drivers', async () => {
    const at = new Date('2024-02-03T04:05:06.789Z');
    await probe()
      .insertInto('kysely_probe')
      .values({
        id: 1,
        big: '9007199254740993', // past 2^53: a number would lose the last digit
        amount: '12.50',
        at,
        day: new Date('2024-02-03T00:00:00Z'),
        doc: JSON.stringify([{ a: 1 }, 'two']), // a JSON array, written as JSON text (pg would make it a PostgreSQL array)
        bytes: new Uint8Array([0, 1, 255]),
        tags: ['x', 'y'],
      })
      .execute();
    const row = await probe().selectFrom('kysely_probe').selectAll().executeTakeFirstOrThrow();
    expect(row.big).toBe('9007199254740993');
    expect(row.amount).toBe('12.50');
    expect(row.at).toBeInstanceOf(Date);
    expect(row.at.toISOString()).toBe(at.toISOString());
    expect(row.day).toBeInstanceOf(Date);
    expect(row.doc).toEqual([{ a: 1 }, 'two']);
    expect(row.bytes).toBeInstanceOf(Uint8Array);
    expect([...row.bytes]).toEqual([0, 1, 255]);
    expect(row.tags).toEqual(['x', 'y']);

    const company = await database.db.kysely.selectFrom('companies').selectAll().where('id', '=', await companyId()).executeTakeFirstOrThrow();
    expect(typeof company.change_seq).toBe('string');
    expect(company.created_at).toBeInstanceOf(Date);
    const count = await database.db.kysely.selectFrom('companies').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(typeof count.n).toBe('string');
  });

  it('report the rows an update or a delete touched', async () => {
    const id = await companyId();
    const values = (n: number) => ({ company_id: id, name: `Department ${n}` });
    await database.db.kysely.insertInto('departments').values([values(1), values(2)]).execute();
    const updated = await database.db.kysely.updateTable('departments').set({ head_user_id: null }).where('company_id', '=', id).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const deleted = await database.db.kysely.deleteFrom('departments').where('company_id', '=', id).executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(2n);
  });

  it("run a transaction's queries inside that transaction: its rollback takes them back", async () => {
    const id = await companyId();
    const name = `Rolled back ${randomUUID()}`;
    await expect(
      database.db.transaction(async (tx) => {
        await tx.kysely.insertInto('departments').values({ company_id: id, name }).execute();
        // Seen inside the transaction ...
        expect(await tx.kysely.selectFrom('departments').select('name').where('company_id', '=', id).execute()).toEqual([{ name }]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // ... and gone with it.
    expect(await database.db.kysely.selectFrom('departments').select('name').where('company_id', '=', id).execute()).toEqual([]);

    await database.db.transaction((tx) => tx.kysely.insertInto('departments').values({ company_id: id, name }).execute());
    expect(await database.db.kysely.selectFrom('departments').select('name').where('company_id', '=', id).execute()).toEqual([{ name }]);
  });

  it('refuse to open, nest or end transactions of their own: db.transaction is the one way', async () => {
    const refused = /db\.transaction/;
    await expect(database.db.kysely.transaction().execute(() => Promise.resolve())).rejects.toThrow(refused);
    await expect(database.db.kysely.startTransaction().execute()).rejects.toThrow(refused);
    const id = await companyId();
    await database.db.transaction(async (tx) => {
      await expect(tx.kysely.transaction().execute(() => Promise.resolve())).rejects.toThrow(refused);
      // The refusal sent nothing: the transaction goes on and commits.
      await tx.kysely.insertInto('departments').values({ company_id: id, name: 'After the refusal' }).execute();
    });
    expect(await database.db.kysely.selectFrom('departments').select('name').where('company_id', '=', id).execute()).toEqual([{ name: 'After the refusal' }]);
  });

  it('is one Kysely per Queryable, built once', async () => {
    expect(database.db.kysely).toBe(database.db.kysely);
    await database.db.transaction((tx) => {
      expect(tx.kysely).toBe(tx.kysely);
      expect(tx.kysely).not.toBe(database.db.kysely);
      return Promise.resolve();
    });
  });
});
