import { describe, expect, it, vi } from 'vitest';
import { HttpError, type HttpClient, type RequestOptions } from '../../lib/http';
import { createSubmissionKeys } from '../../lib/submission-key';
import { notificationMailOf, sendPasswordChange, sendProfilePatch, sendVerificationDecision } from './hooks';

/** An HTTP client whose writes answer `outcomes` in turn (an Error is thrown); `keys` are the keys sent. */
function scriptedHttp(outcomes: unknown[]) {
  const keys: (string | undefined)[] = [];
  const write = (_path: string, _body?: unknown, options?: RequestOptions) => {
    keys.push(options?.headers?.['Idempotency-Key']);
    const outcome = outcomes.shift();
    return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome ?? null);
  };
  return { http: { post: vi.fn(write), patch: vi.fn(write) } as unknown as Pick<HttpClient, 'post' | 'patch'>, keys };
}

describe("the profile's writes", () => {
  it('save the same data again after no answer under the same key, and the next change under a new one', async () => {
    const { http, keys } = scriptedHttp([new HttpError(0, null), { data: null }, { data: null }]);
    const submissions = createSubmissionKeys();
    await expect(sendProfilePatch(http, { firstName: 'Анна' }, submissions)).rejects.toMatchObject({ status: 0 });
    await sendProfilePatch(http, { firstName: 'Анна' }, submissions);
    await sendProfilePatch(http, { firstName: 'Анна' }, submissions);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('change the password with a new key after the server said the current one is wrong', async () => {
    const { http, keys } = scriptedHttp([new HttpError(400, { message: 'Validation failed', errors: { currentPassword: 'passwordWrong' } }), { data: null }]);
    const submissions = createSubmissionKeys();
    await expect(sendPasswordChange(http, { currentPassword: 'old-secret', newPassword: 'new-secret-1' }, submissions)).rejects.toMatchObject({ status: 400 });
    await sendPasswordChange(http, { currentPassword: 'old-secret-fixed', newPassword: 'new-secret-1' }, submissions);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it("send the admin's decision again after no answer under the same key", async () => {
    const { http, keys } = scriptedHttp([new HttpError(0, null), { data: null }]);
    const submissions = createSubmissionKeys();
    await expect(sendVerificationDecision(http, 'c1', { decision: 'VERIFIED' }, submissions)).rejects.toMatchObject({ status: 0 });
    await sendVerificationDecision(http, 'c1', { decision: 'VERIFIED' }, submissions);
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('the notification mail setting', () => {
  it('is saved with PATCH /user { notificationMail }', async () => {
    const { http } = scriptedHttp([{ data: null }]);
    await sendProfilePatch(http, { notificationMail: 'digest' });
    expect(http.patch).toHaveBeenCalledWith('/api/v1/user', { notificationMail: 'digest' }, expect.objectContaining({ headers: expect.objectContaining({ 'Idempotency-Key': expect.any(String) }) }));
  });

  it('reads the user’s choice, each at once when the server did not say', () => {
    expect(notificationMailOf({ notificationMail: 'digest' })).toBe('digest');
    expect(notificationMailOf({ notificationMail: 'instant' })).toBe('instant');
    expect(notificationMailOf({})).toBe('instant');
  });
});
