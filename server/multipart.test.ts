import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from './i18n/messages';
import { api, createTestApp, json, type TestApp } from './test-support';
import { createCompany, signUpMember, type Login } from './features/suggestions/fixtures';
import { MAX_UPLOAD_BYTES } from './features/files/routes';
import {
  CLOSING,
  exchange,
  fileBody,
  filePartHead,
  malformedBodies,
  MULTIPART_TYPE,
  openConnection,
  PNG,
  pngOfSize,
  postHead,
  writeChunked,
} from './features/files/test-http';

// Every upload route reads its body through server/multipart.ts: a body that is not valid multipart answers
// 400 in the request's language (never 500) and stores nothing; a file is refused at its size limit and at
// its first bytes without the rest of the body being waited for.

let t: TestApp;
let port: number;
let uploader: Login;
let hr: Login;
let importPath: string;

beforeAll(async () => {
  t = await createTestApp();
  [uploader, hr] = await Promise.all([signUpMember(t), signUpMember(t)]);
  const company = await createCompany(t.db, 'Multipart Co', { [hr.id]: ['HR'] });
  importPath = api(`/companies/${company.companyId}/employees/import?dryRun=1`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  port = address.port;
});
afterAll(() => t.close());

const countFiles = async () => Number((await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM files'))?.n);
const countImports = async () => Number((await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM employee_imports'))?.n);

function post(url: string, token: string, payload: Buffer, language = 'en', contentType = MULTIPART_TYPE) {
  return t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType, authorization: `Bearer ${token}`, Language: language } });
}

describe.each([
  { route: 'POST /files/upload', url: () => api('/files/upload'), token: () => uploader.access },
  { route: 'POST /companies/{id}/employees/import', url: () => importPath, token: () => hr.access },
])('a malformed multipart body on $route', ({ url, token }) => {
  it.each(Object.keys(malformedBodies()))('%s: 400 uploadMalformed, nothing stored', async (name) => {
    const body = malformedBodies()[name]!;
    const [files, imports] = [await countFiles(), await countImports()];
    const english = await post(url(), token(), body, 'en');
    expect(english.statusCode, english.body).toBe(400);
    expect(json(english)).toEqual({ message: translate('en', 'error.uploadMalformed') });
    const russian = await post(url(), token(), body, 'ru');
    expect(russian.statusCode).toBe(400);
    expect(json(russian)).toEqual({ message: translate('ru', 'error.uploadMalformed') });
    expect([await countFiles(), await countImports()]).toEqual([files, imports]);
  });

  it('a multipart Content-Type without a boundary: 400 uploadMalformed', async () => {
    const response = await post(url(), token(), fileBody(PNG), 'en', 'multipart/form-data');
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message: translate('en', 'error.uploadMalformed') });
  });

  it('an empty body: 400, the file is missing', async () => {
    const response = await post(url(), token(), Buffer.alloc(0));
    expect(response.statusCode).toBe(400);
  });
});

it('has both catalogues say what uploadMalformed means', () => {
  expect(translate('en', 'error.uploadMalformed')).toMatch(/cut off|not a valid form/);
  expect(translate('ru', 'error.uploadMalformed')).toMatch(/прервалась|повреждена/);
});

describe('over a real socket', () => {
  const uploadHead = (headers: Record<string, string>) =>
    postHead(api('/files/upload'), { 'Content-Type': MULTIPART_TYPE, Authorization: `Bearer ${uploader.access}`, Language: 'en', ...headers });

  it.each(Object.keys(malformedBodies()))('%s, with Content-Length: 400', async (name) => {
    const body = malformedBodies()[name]!;
    const before = await countFiles();
    const answer = await exchange(port, uploadHead({ 'Content-Length': String(body.length) }), (socket) => socket.write(body));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ message: translate('en', 'error.uploadMalformed') });
    expect(await countFiles()).toBe(before);
  });

  it('a chunked body cut inside the file: 400', async () => {
    const body = malformedBodies()['cut inside the file']!;
    const answer = await exchange(port, uploadHead({ 'Transfer-Encoding': 'chunked' }), (socket) => writeChunked(socket, body, 7));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ message: translate('en', 'error.uploadMalformed') });
  });

  it('the staff-list import, cut inside the file: 400', async () => {
    const body = malformedBodies()['cut inside the file']!;
    const head = postHead(importPath, { 'Content-Type': MULTIPART_TYPE, Authorization: `Bearer ${hr.access}`, Language: 'ru', 'Content-Length': String(body.length) });
    const answer = await exchange(port, head, (socket) => socket.write(body));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ message: translate('ru', 'error.uploadMalformed') });
  });

  it('a client that goes away mid-body leaves nothing stored, and the next upload is served', async () => {
    const before = await countFiles();
    const body = fileBody(pngOfSize(256 * 1024));
    await new Promise<void>((resolve) => {
      exchange(port, uploadHead({ 'Content-Length': String(body.length) }), (socket) => {
        socket.write(body.subarray(0, 100 * 1024), () => {
          socket.destroy();
          resolve();
        });
      }).catch(() => undefined);
    });
    const next = await exchange(port, uploadHead({ 'Content-Length': String(fileBody(PNG).length) }), (socket) => socket.write(fileBody(PNG)));
    expect(next.status).toBe(200);
    expect(await countFiles()).toBe(before + 1);
  });

  it('keeps a file sent chunked in small pieces (no Content-Length) byte for byte', async () => {
    const file = pngOfSize(700 * 1024);
    for (let i = 0; i < file.length; i += 4096) file[i] = i % 251;
    PNG.copy(file, 0, 0, 8);
    const answer = await exchange(port, uploadHead({ 'Transfer-Encoding': 'chunked' }), (socket) => writeChunked(socket, fileBody(file), 4093));
    expect(answer.status, answer.body).toBe(200);
    const { imageLink } = (JSON.parse(answer.body) as { data: { imageLink: string } }).data;
    const read = await t.app.inject({ method: 'GET', url: imageLink, headers: { authorization: `Bearer ${uploader.access}` } });
    expect(read.rawPayload.equals(file)).toBe(true);
  });

  it('answers 413 at the size limit, without waiting for the rest of the body', async () => {
    const before = await countFiles();
    // 12 MiB declared; only the limit and 64 KiB more are ever sent, so an answer proves the server stopped there.
    const declared = filePartHead().length + 12 * 1024 * 1024 + 2 + CLOSING.length;
    const sent = Buffer.concat([filePartHead(), pngOfSize(MAX_UPLOAD_BYTES + 64 * 1024)]);
    const answer = await exchange(port, uploadHead({ 'Content-Length': String(declared) }), (socket) => socket.write(sent));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: translate('en', 'error.fileTooLarge', { megabytes: 10 }) });
    expect(await countFiles()).toBe(before);
  });

  it('after a 413, reads the rest of the body and drops it: the same connection then serves the next request', async () => {
    const body = fileBody(pngOfSize(MAX_UPLOAD_BYTES + 2 * 1024 * 1024));
    const connection = await openConnection(port);
    try {
      connection.socket.write(uploadHead({ 'Content-Length': String(body.length) }));
      connection.socket.write(body);
      expect((await connection.nextAnswer()).status).toBe(413);
      connection.socket.write(`GET ${api('/health')} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      expect((await connection.nextAnswer()).status).toBe(200);
    } finally {
      connection.socket.destroy();
    }
  });

  it('closes the connection of a refused body that goes on for more than one more limit', async () => {
    const connection = await openConnection(port);
    try {
      connection.socket.on('error', () => undefined);
      connection.socket.write(uploadHead({ 'Content-Length': String(64 * 1024 * 1024) }));
      connection.socket.write(Buffer.concat([filePartHead(), pngOfSize(2 * MAX_UPLOAD_BYTES + 1024 * 1024)]));
      expect((await connection.nextAnswer()).status).toBe(413);
      await connection.closed;
    } finally {
      connection.socket.destroy();
    }
  });

  it('answers 415 at the first bytes of a file that is not an image, without waiting for the rest', async () => {
    const declared = filePartHead().length + 5 * 1024 * 1024 + 2 + CLOSING.length;
    const sent = Buffer.concat([filePartHead('page.png'), Buffer.from('<html><script>alert(1)</script>'.padEnd(64 * 1024, ' '))]);
    const answer = await exchange(port, uploadHead({ 'Content-Length': String(declared) }), (socket) => socket.write(sent));
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body)).toEqual({ message: translate('en', 'error.fileType') });
  });
});
