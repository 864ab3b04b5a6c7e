import { describe, expect, it } from 'vitest';
import { takeBootResponse, type BootRequests } from './boot-requests';

const USER = '/main-service/api/v1/user';

function bootRequests(): { requests: BootRequests; response: Promise<Response> } {
  const response = Promise.resolve(new Response('{"data":{}}', { status: 200 }));
  return { response, requests: { [USER]: { authorization: 'Bearer t1', language: 'ru', response } } };
}

const init = (headers: Record<string, string>, extra: RequestInit = {}): RequestInit => ({ method: 'GET', headers, ...extra });

describe("the boot script's session answers", () => {
  it('answer the same request once: same URL, GET, same token and language', () => {
    const { requests, response } = bootRequests();
    expect(takeBootResponse(USER, init({ Accept: 'application/json', Language: 'ru', Authorization: 'Bearer t1' }), requests)).toBe(response);
    expect(takeBootResponse(USER, init({ Language: 'ru', Authorization: 'Bearer t1' }), requests)).toBeNull();
  });

  it('are not taken by another request: another token, language, method or URL, or none made', () => {
    const { requests } = bootRequests();
    expect(takeBootResponse(USER, init({ Language: 'ru', Authorization: 'Bearer t2' }), requests)).toBeNull();
    expect(takeBootResponse(USER, init({ Language: 'en', Authorization: 'Bearer t1' }), requests)).toBeNull();
    expect(takeBootResponse(USER, init({ Language: 'ru', Authorization: 'Bearer t1' }, { method: 'PATCH', body: '{}' }), requests)).toBeNull();
    expect(takeBootResponse(`${USER}/settings`, init({ Language: 'ru', Authorization: 'Bearer t1' }), requests)).toBeNull();
    expect(takeBootResponse(USER, init({ Language: 'ru', Authorization: 'Bearer t1' }), undefined)).toBeNull();
    // Still there for the request it was made for.
    expect(takeBootResponse(USER, init({ Language: 'ru', Authorization: 'Bearer t1' }), requests)).not.toBeNull();
  });
});
