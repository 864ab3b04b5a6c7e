import { describe, expect, it } from 'vitest';
import { MAX_PUSH_OPERATIONS, PUSH_PATH, fitBatch, pushOperations, type PushExchange, type PushExchangeAnswer, type PushOperation, type PushRequest } from './push';

function operation(n: number, body: unknown = { title: `Proposal ${n}` }): PushOperation {
  return { id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, method: 'POST', path: '/api/v1/companies/c/suggestions', body };
}

/** A transport that records what it was asked and answers what the test says. */
function fakeExchange(answer: PushExchangeAnswer | ((request: PushRequest) => PushExchangeAnswer)) {
  const requests: PushRequest[] = [];
  const exchange: PushExchange = (request) => {
    requests.push(request);
    return Promise.resolve(typeof answer === 'function' ? answer(request) : answer);
  };
  return { exchange, requests };
}

const ok = (results: unknown[]): PushExchangeAnswer => ({ kind: 'answer', status: 200, body: { data: { results }, message: 'OK' }, retryAfter: null });
const created = (op: PushOperation) => ({ id: op.id, status: 201, body: { data: { id: op.id }, message: 'Proposal submitted.' } });

describe('pushOperations', () => {
  it('sends the operations in one POST, in order, each with its id, method, path and body', async () => {
    const ops = [operation(1), operation(2), { ...operation(3), method: 'DELETE' as const, body: undefined }];
    const { exchange, requests } = fakeExchange(ok(ops.map(created)));
    await pushOperations(exchange, ops, { timeoutMs: 5_000 });
    expect(requests).toEqual([
      {
        method: 'POST',
        url: PUSH_PATH,
        timeoutMs: 5_000,
        body: {
          operations: [
            { id: ops[0]?.id, method: 'POST', path: '/api/v1/companies/c/suggestions', body: { title: 'Proposal 1' } },
            { id: ops[1]?.id, method: 'POST', path: '/api/v1/companies/c/suggestions', body: { title: 'Proposal 2' } },
            { id: ops[2]?.id, method: 'DELETE', path: '/api/v1/companies/c/suggestions', body: null },
          ],
        },
      },
    ]);
  });

  it('gives each operation its own answer, as its direct request would have had it', async () => {
    const ops = [operation(1), operation(2), operation(3)];
    const results = [
      created(ops[0]!),
      { id: ops[1]!.id, status: 400, body: { message: 'Check the fields.', errors: { title: 'Required.' } } },
      { id: ops[2]!.id, status: 409, body: { message: 'Still running.' }, retryAfter: '1' },
    ];
    const { exchange } = fakeExchange(ok(results));
    expect(await pushOperations(exchange, ops)).toEqual({
      kind: 'results',
      answers: [
        { id: ops[0]!.id, status: 201, body: { data: { id: ops[0]!.id }, message: 'Proposal submitted.' }, retryAfter: null },
        { id: ops[1]!.id, status: 400, body: { message: 'Check the fields.', errors: { title: 'Required.' } }, retryAfter: null },
        { id: ops[2]!.id, status: 409, body: { message: 'Still running.' }, retryAfter: '1' },
      ],
    });
  });

  it('matches results by id, whatever their order, and ignores results for operations it did not send', async () => {
    const ops = [operation(1), operation(2)];
    const { exchange } = fakeExchange(ok([created(operation(9)), created(ops[1]!), created(ops[0]!)]));
    const outcome = await pushOperations(exchange, ops);
    expect(outcome.kind === 'results' && outcome.answers.map((a) => [a.id, a.status])).toEqual([
      [ops[0]!.id, 201],
      [ops[1]!.id, 201],
    ]);
  });

  it('counts a missing or malformed result as a transient failure of that operation, never a success', async () => {
    const ops = [operation(1), operation(2), operation(3), operation(4)];
    const { exchange } = fakeExchange(
      ok([created(ops[0]!), { id: ops[1]!.id, status: '201', body: {} }, { id: ops[2]!.id, body: { data: {} } }]),
    );
    const outcome = await pushOperations(exchange, ops);
    if (outcome.kind !== 'results') throw new Error(`unexpected ${outcome.kind}`);
    expect(outcome.answers.map((a) => a.status)).toEqual([201, 502, 502, 502]);
    expect(outcome.answers[3]?.body).toEqual({ message: 'The push answer has no result for this operation' });
  });

  it('counts a 2xx that is not a push answer (a proxy page, say) as a transient failure of every operation', async () => {
    const ops = [operation(1), operation(2)];
    for (const body of [null, '<html>', { data: null }, { data: { results: 'none' } }]) {
      const { exchange } = fakeExchange({ kind: 'answer', status: 200, body, retryAfter: null });
      const outcome = await pushOperations(exchange, ops);
      expect(outcome.kind === 'results' && outcome.answers.map((a) => a.status)).toEqual([502, 502]);
    }
  });

  it('reports a batch refused as a whole with its status, body and Retry-After, and no per-operation answer', async () => {
    const { exchange } = fakeExchange({ kind: 'answer', status: 503, body: { message: 'Down for a moment.' }, retryAfter: '30' });
    expect(await pushOperations(exchange, [operation(1)])).toEqual({ kind: 'refused', status: 503, body: { message: 'Down for a moment.' }, retryAfter: '30' });
  });

  it('passes on no answer and a session that could not be renewed', async () => {
    const network = fakeExchange({ kind: 'network', message: 'Failed to fetch', timedOut: true });
    expect(await pushOperations(network.exchange, [operation(1)])).toEqual({ kind: 'network', message: 'Failed to fetch', timedOut: true });
    const auth = fakeExchange({ kind: 'auth', message: 'Token Expired.' });
    expect(await pushOperations(auth.exchange, [operation(1)])).toEqual({ kind: 'auth', message: 'Token Expired.' });
  });

  it('sends nothing for no operations and refuses more than the server takes', async () => {
    const { exchange, requests } = fakeExchange(ok([]));
    expect(await pushOperations(exchange, [])).toEqual({ kind: 'results', answers: [] });
    expect(requests).toHaveLength(0);
    const tooMany = Array.from({ length: MAX_PUSH_OPERATIONS + 1 }, (_, i) => operation(i));
    await expect(pushOperations(exchange, tooMany)).rejects.toThrow(RangeError);
    expect(requests).toHaveLength(0);
  });
});

describe('fitBatch', () => {
  it('takes at most MAX_PUSH_OPERATIONS', () => {
    const ops = Array.from({ length: 250 }, (_, i) => operation(i));
    expect(fitBatch(ops)).toBe(MAX_PUSH_OPERATIONS);
    expect(fitBatch(ops.slice(0, 7))).toBe(7);
    expect(fitBatch([])).toBe(0);
  });

  it('stops before the encoded request would pass the byte limit, counting UTF-8 bytes', () => {
    // Cyrillic takes two bytes a letter: 1,000 letters are about 2 KB of each operation.
    const ops = Array.from({ length: 10 }, (_, i) => operation(i, { title: 'ж'.repeat(1_000) }));
    const fitted = fitBatch(ops, { maxBytes: 7_000 });
    expect(fitted).toBe(3);
    const bytes = new TextEncoder().encode(JSON.stringify({ operations: ops.slice(0, fitted).map((op) => ({ ...op })) })).byteLength;
    expect(bytes).toBeLessThanOrEqual(7_000);
    const oneMore = new TextEncoder().encode(JSON.stringify({ operations: ops.slice(0, fitted + 1) })).byteLength;
    expect(oneMore).toBeGreaterThan(7_000);
  });

  it('always lets one operation through, so an oversized row is sent (and refused) on its own', () => {
    expect(fitBatch([operation(1, { text: 'x'.repeat(10_000) }), operation(2)], { maxBytes: 1_000 })).toBe(1);
  });
});
