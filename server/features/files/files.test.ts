import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../i18n/messages';
import { api, createTestApp, json, signUp, type TestApp } from '../../test-support';
import { createCompany, userIdOf, type Fixture } from '../suggestions/fixtures';
import { detectImageType } from './detect';
import { cleanFileName, fileIdOf, MAX_UPLOAD_BYTES } from './routes';

// A real 1×1 PNG and the head of a JPEG (SOI + JFIF APP0): the server only reads the signatures.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);

interface Part {
  field: string;
  filename?: string;
  contentType?: string;
  bytes: Buffer | string;
}

/** A multipart/form-data body, as a browser's FormData would send it. */
function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----kit-boundary-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.field}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.isBuffer(part.bytes) ? part.bytes : Buffer.from(part.bytes), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let t: TestApp;
let alice: Awaited<ReturnType<typeof signUp>>;
let bob: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestApp();
  alice = await signUp(t);
  bob = await signUp(t);
});
afterAll(() => t.close());

const bearer = (token: string | null) => (token ? { authorization: `Bearer ${token}` } : {});

function upload(parts: Part[], token: string | null = alice.access, language = 'en', extra: Record<string, string> = {}) {
  const body = multipart(parts);
  return t.app.inject({ method: 'POST', url: api('/files/upload'), payload: body.payload, headers: { ...body.headers, ...bearer(token), Language: language, ...extra } });
}

function download(link: string, token: string | null = alice.access) {
  return t.app.inject({ method: 'GET', url: link, headers: { ...bearer(token), Language: 'en' } });
}

interface UploadAnswer {
  status: number;
  message: string;
  data: { imageId: string; imageLink: string; name: string };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /files/upload', () => {
  it('keeps a PNG and answers its id, link and name with status 200', async () => {
    const response = await upload([{ field: 'file', filename: 'схема.png', contentType: 'image/png', bytes: PNG }]);
    expect(response.statusCode).toBe(200);
    const answer = json<UploadAnswer>(response);
    expect(answer.status).toBe(200);
    expect(answer.message).toBe('OK');
    expect(answer.data.imageId).toMatch(UUID);
    expect(answer.data.imageLink).toBe(`/main-service/api/v1/uploads/${answer.data.imageId}.png`);
    expect(answer.data.name).toBe('схема.png');
    const stored = await t.db.one<{ content_type: string; size: number; company_id: string | null }>(
      'SELECT content_type, size, company_id FROM files WHERE id = $1',
      [answer.data.imageId],
    );
    expect(stored).toEqual({ content_type: 'image/png', size: PNG.length, company_id: null });
  });

  it('keeps a JPEG with a .jpg link', async () => {
    const response = await upload([{ field: 'file', filename: 'photo.jpeg', contentType: 'image/jpeg', bytes: JPEG }]);
    expect(response.statusCode).toBe(200);
    expect(json<UploadAnswer>(response).data.imageLink).toMatch(/\.jpg$/);
  });

  it('decides the type by the bytes: a PNG named .txt and declared text/plain is kept as a PNG', async () => {
    const response = await upload([{ field: 'file', filename: 'notes.txt', contentType: 'text/plain', bytes: PNG }]);
    expect(response.statusCode).toBe(200);
    const { data } = json<UploadAnswer>(response);
    expect(data.imageLink).toMatch(/\.png$/);
    expect((await download(data.imageLink)).headers['content-type']).toBe('image/png');
  });

  it('refuses a text file named .png and declared image/png, with 415 in the request language', async () => {
    const parts = [{ field: 'file', filename: 'fake.png', contentType: 'image/png', bytes: 'just some text, not an image' }];
    const english = await upload(parts, alice.access, 'en');
    expect(english.statusCode).toBe(415);
    expect(json(english)).toEqual({ message: 'Only PNG and JPEG images can be uploaded.' });
    const russian = await upload(parts, alice.access, 'ru');
    expect(json(russian)).toEqual({ message: translate('ru', 'error.fileType') });
    expect(translate('ru', 'error.fileType')).toMatch(/PNG и JPEG/);
  });

  it('refuses an empty file as not an image', async () => {
    const response = await upload([{ field: 'file', filename: 'empty.png', contentType: 'image/png', bytes: Buffer.alloc(0) }]);
    expect(response.statusCode).toBe(415);
  });

  it('accepts a file of exactly 10 MiB', async () => {
    const bytes = Buffer.alloc(MAX_UPLOAD_BYTES);
    PNG.copy(bytes);
    const response = await upload([{ field: 'file', filename: 'big.png', contentType: 'image/png', bytes }]);
    expect(response.statusCode).toBe(200);
  });

  it('refuses a file over 10 MiB with 413 and a localized message naming the limit', async () => {
    const bytes = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    PNG.copy(bytes);
    const english = await upload([{ field: 'file', filename: 'huge.png', contentType: 'image/png', bytes }]);
    expect(english.statusCode).toBe(413);
    expect(json(english)).toEqual({ message: 'The file is too large: at most 10 MB.' });
    const russian = await upload([{ field: 'file', filename: 'huge.png', contentType: 'image/png', bytes }], alice.access, 'ru');
    expect(json(russian)).toEqual({ message: 'Файл слишком большой: не более 10 МБ.' });
  });

  it('refuses a form without the file field, with 400', async () => {
    const noFile = await upload([{ field: 'comment', bytes: 'hello' }]);
    expect(noFile.statusCode).toBe(400);
    expect(json(noFile)).toEqual({ message: translate('en', 'error.fileMissing') });
    const otherField = await upload([{ field: 'photo', filename: 'a.png', contentType: 'image/png', bytes: PNG }]);
    expect(otherField.statusCode).toBe(400);
    expect(json(otherField)).toEqual({ message: translate('en', 'error.fileMissing') });
  });

  it('refuses a request that is not multipart, with 400 file missing', async () => {
    const response = await t.app.inject({ method: 'POST', url: api('/files/upload'), payload: { file: 'x' }, headers: { ...bearer(alice.access), Language: 'en' } });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message: translate('en', 'error.fileMissing') });
  });

  it('takes one file per call: two files are refused with 400 and nothing is kept', async () => {
    const before = await t.db.one<{ count: string }>('SELECT count(*)::text AS count FROM files');
    const response = await upload([
      { field: 'file', filename: 'a.png', contentType: 'image/png', bytes: PNG },
      { field: 'file', filename: 'b.png', contentType: 'image/png', bytes: PNG },
    ]);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message: translate('en', 'error.fileTooMany') });
    expect(await t.db.one('SELECT count(*)::text AS count FROM files')).toEqual(before);
  });

  it('refuses a request without a token, with 401', async () => {
    const response = await upload([{ field: 'file', filename: 'a.png', contentType: 'image/png', bytes: PNG }], null);
    expect(response.statusCode).toBe(401);
    expect(json(response)).toEqual({ message: 'Sign in to continue.' });
  });
});

describe('GET /uploads/{fileName}', () => {
  let link: string;
  let imageId: string;
  beforeAll(async () => {
    const answer = json<UploadAnswer>(await upload([{ field: 'file', filename: 'отчёт 1.png', contentType: 'image/png', bytes: PNG }]));
    link = answer.data.imageLink;
    imageId = answer.data.imageId;
  });

  it('gives the uploader the same bytes, with the stored type and cache-for-good, no-sniff headers', async () => {
    const response = await download(link);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(PNG)).toBe(true);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-length']).toBe(String(PNG.length));
    expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe(`inline; filename*=UTF-8''${encodeURIComponent('отчёт 1.png')}`);
  });

  it('finds the file by its bare id too', async () => {
    expect((await download(api(`/uploads/${imageId}`))).statusCode).toBe(200);
  });

  it("answers 404 for another user's file, exactly as for a missing one", async () => {
    const others = await download(link, bob.access);
    const missing = await download(api('/uploads/00000000-0000-4000-8000-000000000000.png'), bob.access);
    expect(others.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(json(others)).toEqual(json(missing));
  });

  it('answers 404 for a name that is not a file id', async () => {
    expect((await download(api('/uploads/..%2F..%2Fetc%2Fpasswd'))).statusCode).toBe(404);
    expect((await download(api(`/uploads/${imageId}.exe`))).statusCode).toBe(404);
  });

  it('refuses a request without a token, with 401', async () => {
    expect((await download(link, null)).statusCode).toBe(401);
  });
});

const countFiles = async () => Number((await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM files'))?.n);

describe('POST /files/upload with an Idempotency-Key', () => {
  const png = (filename = 'plan.png') => [{ field: 'file', filename, contentType: 'image/png', bytes: PNG }];
  const withKey = (key: string) => ({ 'Idempotency-Key': key });

  it('replays the stored answer with Idempotent-Replayed: true and keeps one file', async () => {
    const key = randomUUID();
    const before = await countFiles();
    const first = await upload(png(), alice.access, 'en', withKey(key));
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await upload(png(), alice.access, 'en', withKey(key));
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json<UploadAnswer>(again).data.imageId).toBe(json<UploadAnswer>(first).data.imageId);
    expect(json(again)).toEqual(json(first));
    expect(await countFiles()).toBe(before + 1);
    // The replayed link serves the one stored file.
    const read = await download(json<UploadAnswer>(again).data.imageLink);
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(PNG)).toBe(true);
  });

  it('answers 422 for the same key with another file, or the same bytes under another name, and keeps nothing', async () => {
    const key = randomUUID();
    expect((await upload(png(), alice.access, 'en', withKey(key))).statusCode).toBe(200);
    const before = await countFiles();
    const otherFile = await upload([{ field: 'file', filename: 'plan.png', contentType: 'image/jpeg', bytes: JPEG }], alice.access, 'en', withKey(key));
    expect(otherFile.statusCode).toBe(422);
    expect(json(otherFile)).toEqual({ message: translate('en', 'error.idempotencyMismatch') });
    const otherName = await upload(png('renamed.png'), alice.access, 'en', withKey(key));
    expect(otherName.statusCode).toBe(422);
    expect(await countFiles()).toBe(before);
  });

  it("keeps keys per user: another user's upload with the same key is a new file", async () => {
    const key = randomUUID();
    const mine = await upload(png(), alice.access, 'en', withKey(key));
    const theirs = await upload(png(), bob.access, 'en', withKey(key));
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(json<UploadAnswer>(theirs).data.imageId).not.toBe(json<UploadAnswer>(mine).data.imageId);
  });

  it('refuses a malformed key with 400 before storing anything', async () => {
    const before = await countFiles();
    const response = await upload(png(), alice.access, 'en', withKey('not-a-uuid'));
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message: translate('en', 'error.idempotencyKeyInvalid') });
    expect(await countFiles()).toBe(before);
  });
});

describe('an image attached to a proposal', () => {
  type Login = Awaited<ReturnType<typeof signUp>> & { id: string };
  let author: Login;
  let colleague: Login;
  let head: Login;
  let rivalMember: Login;
  let nonMember: Login;
  let company: Fixture;
  let image: UploadAnswer['data'];

  const login = async (): Promise<Login> => {
    const l = await signUp(t);
    return { ...l, id: await userIdOf(t.db, l.email) };
  };

  beforeAll(async () => {
    [author, colleague, head, rivalMember, nonMember] = await Promise.all([login(), login(), login(), login(), login()]);
    company = await createCompany(t.db, 'Company C', { [author.id]: ['EMPLOYEE'], [colleague.id]: ['EMPLOYEE'], [head.id]: ['EMPLOYEE'] }, { A: head.id });
    await createCompany(t.db, 'Company D', { [rivalMember.id]: ['OWNER'] });
    const uploaded = await upload([{ field: 'file', filename: 'станок.png', contentType: 'image/png', bytes: PNG }], author.access);
    expect(uploaded.statusCode).toBe(200);
    image = json<UploadAnswer>(uploaded).data;
  });

  it('is private to its uploader until it is attached', async () => {
    expect((await download(image.imageLink, author.access)).statusCode).toBe(200);
    expect((await download(image.imageLink, colleague.access)).statusCode).toBe(404);
  });

  it("gets the proposal's company and can then be read by whoever may read the proposal, not by any member", async () => {
    const submitted = await t.app.inject({
      method: 'POST',
      url: api(`/companies/${company.companyId}/suggestions`),
      headers: { ...bearer(author.access), Language: 'en' },
      payload: { title: 'With a photo', problem: 'p', solution: 's', expectedEffect: 'e', departmentId: company.departments.A, imageIds: [image.imageId] },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    expect(json<{ data: { images: unknown[] } }>(submitted).data.images).toEqual([image]);
    expect(await t.db.one('SELECT company_id FROM files WHERE id = $1', [image.imageId])).toEqual({ company_id: company.companyId });

    // The head of the proposal's department reads it; another employee of the company does not.
    const byHead = await download(image.imageLink, head.access);
    expect(byHead.statusCode).toBe(200);
    expect(byHead.rawPayload.equals(PNG)).toBe(true);
    expect(byHead.headers['content-type']).toBe('image/png');
    expect((await download(image.imageLink, author.access)).statusCode).toBe(200);

    const missing = await download(api(`/uploads/${randomUUID()}.png`), rivalMember.access);
    for (const outsider of [colleague, rivalMember, nonMember]) {
      const response = await download(image.imageLink, outsider.access);
      expect(response.statusCode).toBe(404);
      expect(json(response)).toEqual(json(missing));
      expect((await download(api(`/uploads/${image.imageId}`), outsider.access)).statusCode).toBe(404);
    }
  });

  it('is no longer readable by a member whose membership ended', async () => {
    await t.db.query('UPDATE company_members SET active = false WHERE company_id = $1 AND user_id = $2', [company.companyId, head.id]);
    try {
      expect((await download(image.imageLink, head.access)).statusCode).toBe(404);
    } finally {
      await t.db.query('UPDATE company_members SET active = true WHERE company_id = $1 AND user_id = $2', [company.companyId, head.id]);
    }
  });
});

describe('file helpers', () => {
  it('detects PNG and JPEG by their signatures only', () => {
    expect(detectImageType(PNG)).toBe('image/png');
    expect(detectImageType(JPEG)).toBe('image/jpeg');
    expect(detectImageType(Buffer.from('GIF89a'))).toBeNull();
    expect(detectImageType(PNG.subarray(0, 7))).toBeNull();
  });

  it('keeps only the last part of a path, without control characters, and names a nameless file', () => {
    expect(cleanFileName('C:\\Users\\me\\photo.png', 'png')).toBe('photo.png');
    expect(cleanFileName('../../a\u0000b.jpg', 'jpg')).toBe('ab.jpg');
    expect(cleanFileName('', 'jpg')).toBe('image.jpg');
    expect(cleanFileName(`${'x'.repeat(300)}.png`, 'png')).toHaveLength(200);
  });

  it('reads a file id from a file name, case-insensitively, and nothing else', () => {
    expect(fileIdOf('0A1B2C3D-0000-4000-8000-000000000000.JPEG')).toBe('0a1b2c3d-0000-4000-8000-000000000000');
    expect(fileIdOf('not-an-id.png')).toBeNull();
  });
});
