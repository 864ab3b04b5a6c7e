import { describe, expect, it, vi } from 'vitest';
import { HttpError, type HttpClient, type RequestOptions } from '../../lib/http';
import { createSubmissionKeys } from '../../lib/submission-key';
import { sendInvitationAccept } from './invitation-hooks';

describe('accepting an invitation', () => {
  it('accepts again after no answer under the same key (the server replays it), and after a refusal under a new one', async () => {
    const outcomes: unknown[] = [new HttpError(0, null), { data: { companyId: 'c1' } }, new HttpError(403, { message: 'Other account' }), new HttpError(0, null)];
    const keys: (string | undefined)[] = [];
    const post = vi.fn((_path: string, _body?: unknown, options?: RequestOptions) => {
      keys.push(options?.headers?.['Idempotency-Key']);
      const outcome = outcomes.shift();
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome ?? null);
    });
    const http = { post } as unknown as Pick<HttpClient, 'post'>;
    const submissions = createSubmissionKeys();
    await expect(sendInvitationAccept(http, 'tok', null, submissions)).rejects.toMatchObject({ status: 0 });
    expect(await sendInvitationAccept(http, 'tok', null, submissions)).toEqual({ data: { companyId: 'c1' } });
    expect(keys[1]).toBe(keys[0]);
    expect(post.mock.calls[0]?.[0]).toBe('/api/v1/invitations/tok/accept');
    expect(post.mock.calls[0]?.[1]).toEqual({});

    await expect(sendInvitationAccept(http, 'tok2', null, submissions)).rejects.toMatchObject({ status: 403 });
    await expect(sendInvitationAccept(http, 'tok2', null, submissions)).rejects.toMatchObject({ status: 0 });
    expect(keys[3]).not.toBe(keys[2]);
  });
});
