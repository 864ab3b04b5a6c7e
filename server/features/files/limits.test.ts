import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../clock';
import { translate } from '../../i18n/messages';
import { createJobRunner } from '../../jobs/runner';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';
import { FILE_JOB_HANDLERS, FILE_RECURRING } from './jobs';
import { imageFileName, MAX_UPLOAD_BYTES } from './routes';
import { createStoreQueue } from './store-queue';
import { exchange, fileBody, filePartHead, MULTIPART_TYPE, PNG, pngOfSize, postHead } from './test-http';
import { removeStaleUploads, STALE_AFTER_MS, UNATTACHED_QUOTA, UPLOAD_RATE } from './unattached';

// Uploads per user: at most 60 in 10 minutes, at most 30 files / 100 MiB not attached to anything; unattached
// files older than a day are removed by the hourly `files.removeStale` job; an upload is served under a name
// with its detected type's extension.

const clock = createManualClock();
let t: TestApp;
let port: number;
let company: Fixture;

beforeAll(async () => {
  t = await createTestApp({}, undefined, { clock });
  company = await createCompany(t.db, 'Uploads Co', {});
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  port = address.port;
});
afterAll(() => t.close());

interface UploadAnswer {
  data: { imageId: string; imageLink: string; name: string };
}

function upload(who: Login, options: { bytes?: Buffer; filename?: string; key?: string; language?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: api('/files/upload'),
    payload: fileBody(options.bytes ?? PNG, options.filename ?? 'photo.png'),
    headers: {
      'content-type': MULTIPART_TYPE,
      authorization: `Bearer ${who.access}`,
      Language: options.language ?? 'en',
      ...(options.key ? { 'Idempotency-Key': options.key } : {}),
    },
  });
}

async function uploadMany(who: Login, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const response = await upload(who);
    expect(response.statusCode, response.body).toBe(200);
    ids.push(json<UploadAnswer>(response).data.imageId);
  }
  return ids;
}

const unattachedOf = async (who: Login) =>
  Number((await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM files WHERE owner_id = $1 AND company_id IS NULL', [who.id]))?.n);

/** What attaching does to a file (a proposal's or a logo's transaction sets it): it gets the company. */
const attachAll = (who: Login) => t.db.query('UPDATE files SET company_id = $1 WHERE owner_id = $2 AND company_id IS NULL', [company.companyId, who.id]);

/** Makes `who` an employee of the test company, as the company fixture does. */
async function joinCompany(who: Login): Promise<void> {
  await t.db.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [company.companyId, who.id, ['EMPLOYEE']]);
  await t.db.query('INSERT INTO employees (company_id, user_id, last_name, first_name, email, roles) VALUES ($1, $2, $3, $4, $5, $6)', [
    company.companyId,
    who.id,
    'Фамилия',
    'Имя',
    who.email,
    ['EMPLOYEE'],
  ]);
}

const quotaMessage = (language: 'en' | 'ru') => translate(language, 'error.uploadQuota', { files: 30, megabytes: 100 });

describe('the quota of unattached files', () => {
  it('is 30 files: the 31st is refused with 413 in the request language, and attaching a file frees its place', async () => {
    const member = await signUpMember(t);
    await joinCompany(member);
    const ids = await uploadMany(member, UNATTACHED_QUOTA.files);

    const english = await upload(member);
    expect(english.statusCode).toBe(413);
    expect(json(english)).toEqual({ message: quotaMessage('en') });
    expect(quotaMessage('en')).toMatch(/at most 30 files and 100 MB/);
    const russian = await upload(member, { language: 'ru' });
    expect(json(russian)).toEqual({ message: quotaMessage('ru') });
    expect(quotaMessage('ru')).toMatch(/не более 30 файлов и 100 МБ/);
    expect(await unattachedOf(member)).toBe(30);

    const proposal = await t.app.inject({
      method: 'POST',
      url: api(`/companies/${company.companyId}/suggestions`),
      headers: { authorization: `Bearer ${member.access}`, Language: 'en' },
      payload: { title: 'Three photos', problem: 'p', solution: 's', expectedEffect: 'e', departmentId: company.departments.A, imageIds: ids.slice(0, 3) },
    });
    expect(proposal.statusCode, proposal.body).toBe(201);
    expect((await upload(member)).statusCode).toBe(200);
  });

  it('is 100 MiB: an upload that would pass it is refused, one that reaches it exactly is kept', async () => {
    const member = await signUpMember(t);
    // Stands for 90 MiB of earlier uploads (the quota sums the recorded sizes).
    await t.db.query(`INSERT INTO files (owner_id, content_type, size, name, bytes) VALUES ($1, 'image/png', $2, 'earlier.png', $3)`, [
      member.id,
      UNATTACHED_QUOTA.bytes - MAX_UPLOAD_BYTES,
      PNG,
    ]);
    const exactly = await upload(member, { bytes: pngOfSize(MAX_UPLOAD_BYTES) });
    expect(exactly.statusCode, exactly.body).toBe(200);
    const over = await upload(member);
    expect(over.statusCode).toBe(413);
    expect(json(over)).toEqual({ message: quotaMessage('en') });
  });

  it('refuses before the body is read: the answer comes while the body is still unsent', async () => {
    const member = await signUpMember(t);
    await uploadMany(member, UNATTACHED_QUOTA.files);
    const declared = filePartHead().length + MAX_UPLOAD_BYTES + 64;
    const head = postHead(api('/files/upload'), { 'Content-Type': MULTIPART_TYPE, Authorization: `Bearer ${member.access}`, Language: 'en', 'Content-Length': String(declared) });
    const answer = await exchange(port, head, (socket) => socket.write(filePartHead()));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: quotaMessage('en') });
  });

  it('holds under parallel uploads: at 28 of 30, six at once give exactly two files', async () => {
    const member = await signUpMember(t);
    await uploadMany(member, 28);
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => upload(member)))).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 413, 413, 413, 413]);
    expect(await unattachedOf(member)).toBe(30);
  });

  it('still answers a retried upload from its Idempotency-Key when the first one filled it', async () => {
    const member = await signUpMember(t);
    await uploadMany(member, UNATTACHED_QUOTA.files - 1);
    const key = randomUUID();
    const first = await upload(member, { key });
    expect(first.statusCode).toBe(200);
    expect((await upload(member)).statusCode).toBe(413);
    const again = await upload(member, { key });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json<UploadAnswer>(again).data.imageId).toBe(json<UploadAnswer>(first).data.imageId);
  });
});

describe('the upload rate', () => {
  it('is 60 uploads in 10 minutes per user: the 61st answers 429 with Retry-After, another user is not held up, and the window passing lets it in', async () => {
    const [member, other] = await Promise.all([signUpMember(t), signUpMember(t)]);
    for (let done = 0; done < UPLOAD_RATE.limit; done += 20) {
      await uploadMany(member, 20);
      await attachAll(member);
    }
    const refused = await upload(member);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(UPLOAD_RATE.windowSeconds);
    expect(json(refused)).toEqual({ message: translate('en', 'error.uploadRate', { minutes: Math.ceil(Number(refused.headers['retry-after']) / 60) }) });
    const russian = await upload(member, { language: 'ru' });
    expect(json<{ message: string }>(russian).message).toMatch(/^Слишком много загрузок/);

    expect((await upload(other)).statusCode).toBe(200);
    clock.advance(UPLOAD_RATE.windowSeconds * 1000);
    expect((await upload(member)).statusCode).toBe(200);
  });
});

describe('unattached files older than a day', () => {
  const age = (id: string, ms: number) => t.db.query('UPDATE files SET created_at = $2 WHERE id = $1', [id, new Date(Date.now() - ms)]);
  const exists = async (id: string) => (await t.db.one('SELECT 1 FROM files WHERE id = $1', [id])) !== null;

  it('are removed by removeStaleUploads; younger ones and attached ones of any age stay', async () => {
    const member = await signUpMember(t);
    await joinCompany(member);
    const [stale = '', young = '', attached = '', logo = ''] = await uploadMany(member, 4);
    const proposal = await t.app.inject({
      method: 'POST',
      url: api(`/companies/${company.companyId}/suggestions`),
      headers: { authorization: `Bearer ${member.access}`, Language: 'en' },
      payload: { title: 'Kept photo', problem: 'p', solution: 's', expectedEffect: 'e', departmentId: company.departments.A, imageIds: [attached] },
    });
    expect(proposal.statusCode, proposal.body).toBe(201);
    await t.db.query('UPDATE companies SET logo_image_id = $1 WHERE id = $2', [logo, company.companyId]);
    await t.db.query('UPDATE files SET company_id = $1 WHERE id = $2', [company.companyId, logo]);
    for (const id of [stale, attached, logo]) await age(id, STALE_AFTER_MS + 60_000);
    await age(young, STALE_AFTER_MS - 60_000);

    expect(await removeStaleUploads(t.db, new Date())).toBe(1);
    expect(await exists(stale)).toBe(false);
    expect(await exists(young)).toBe(true);
    expect(await exists(attached)).toBe(true);
    expect(await exists(logo)).toBe(true);
    expect(await removeStaleUploads(t.db, new Date())).toBe(0);
  });

  it('are removed by the hourly files.removeStale job', async () => {
    const member = await signUpMember(t);
    const [first = '', second = ''] = await uploadMany(member, 2);
    await age(first, STALE_AFTER_MS + 60_000);
    // Two hours ahead: due whatever another runner of this database did with the recurring row before.
    const jobClock = createManualClock(new Date(Date.now() + 2 * 60 * 60 * 1000));
    const runner = createJobRunner({ db: t.db, clock: jobClock, handlers: FILE_JOB_HANDLERS, recurring: FILE_RECURRING, log: { error: () => undefined, warn: () => undefined } });
    expect(await runner.runDue()).toBe(1);
    expect(await exists(first)).toBe(false);
    expect(await exists(second)).toBe(true);

    await age(second, STALE_AFTER_MS + 60_000);
    expect(await runner.runDue()).toBe(0);
    jobClock.advance(60 * 60 * 1000);
    expect(await runner.runDue()).toBe(1);
    expect(await exists(second)).toBe(false);
  });
});

describe('the name an upload is served under', () => {
  it('has the extension of the detected type, never the one sent: page.html holding a PNG is page.png', async () => {
    const member = await signUpMember(t);
    const uploaded = await upload(member, { filename: 'page.html' });
    expect(uploaded.statusCode).toBe(200);
    const { data } = json<UploadAnswer>(uploaded);
    expect(data.name).toBe('page.png');
    const read = await t.app.inject({ method: 'GET', url: data.imageLink, headers: { authorization: `Bearer ${member.access}` } });
    expect(read.headers['content-disposition']).toBe(`inline; filename*=UTF-8''page.png`);
  });

  it('is derived when served too, so a name stored before (evil.html) goes out as evil.png', async () => {
    const member = await signUpMember(t);
    const { data } = json<UploadAnswer>(await upload(member));
    await t.db.query(`UPDATE files SET name = 'evil.html' WHERE id = $1`, [data.imageId]);
    const read = await t.app.inject({ method: 'GET', url: data.imageLink, headers: { authorization: `Bearer ${member.access}` } });
    expect(read.headers['content-disposition']).toBe(`inline; filename*=UTF-8''evil.png`);
  });

  it('keeps a matching extension and replaces any other', () => {
    expect(imageFileName('схема.PNG', 'image/png')).toBe('схема.PNG');
    expect(imageFileName('photo.jpeg', 'image/jpeg')).toBe('photo.jpeg');
    expect(imageFileName('photo.jpg', 'image/png')).toBe('photo.png');
    expect(imageFileName('x.svg', 'image/jpeg')).toBe('x.jpg');
    expect(imageFileName('archive.tar.html', 'image/png')).toBe('archive.tar.png');
    expect(imageFileName('.html', 'image/png')).toBe('image.png');
    expect(imageFileName('noextension', 'image/png')).toBe('noextension.png');
    expect(imageFileName(undefined, 'image/jpeg')).toBe('image.jpg');
    const long = imageFileName(`${'x'.repeat(250)}.html`, 'image/png');
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long).toMatch(/^x+\.png$/);
  });
});

describe('the store queue', () => {
  const deferred = () => {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };

  it('runs at most two stores at once, the others in arrival order, and a failed one frees its slot', async () => {
    const queue = createStoreQueue(2);
    const tasks = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const runs = tasks.map((task, i) =>
      queue.run(async () => {
        started.push(i);
        await task.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(queue.stats()).toEqual({ running: 2, waiting: 3 });
    expect(started).toEqual([0, 1]);

    tasks[1]!.reject(new Error('store failed'));
    await expect(runs[1]).rejects.toThrow('store failed');
    expect(started).toEqual([0, 1, 2]);
    tasks[0]!.resolve();
    await runs[0];
    expect(started).toEqual([0, 1, 2, 3]);
    for (const task of tasks) task.resolve();
    expect(await Promise.all([runs[0], runs[2], runs[3], runs[4]])).toEqual([0, 2, 3, 4]);
    expect(queue.stats()).toEqual({ running: 0, waiting: 0 });
  });
});
