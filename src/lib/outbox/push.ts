// Sending several outbox rows in one request: POST /main-service/api/v1/sync/push (docs/api.md, "Push").
// Guarantees:
// - one request carries the operations in the order given, each with its row's id as its Idempotency-Key,
//   so an operation the server applied and whose answer was lost replays when sent again, alone or in a
//   batch;
// - every operation gets exactly one answer `{ id, status, body, retryAfter }`, shaped like the answer of
//   its own direct request, so the replayer's rules for a status apply unchanged;
// - only a result the server actually gave counts: a missing or malformed result for an operation (or a
//   2xx whose body is not a push answer) is a transient failure of that operation (502), never a success;
// - a batch the server did not take as a whole (any non-2xx, no answer, the session gone) comes back as
//   such, with no per-operation answer: nothing of it is known to be applied.
// The transport is passed in (the HTTP client's `exchange`: bearer token, `Language`, deadline and the one
// shared refresh), so the page, the service worker and tests use the same code.
import { array, integer, optional, size, string, type, unknown, nullable } from 'superstruct';

export const PUSH_PATH = '/api/v1/sync/push';
/** The server refuses more in one batch. */
export const MAX_PUSH_OPERATIONS = 100;
/** Encoded request size a batch stays under: the server refuses bodies over 1 MiB. */
export const MAX_PUSH_BYTES = 768 * 1024;

export type PushMethod = 'POST' | 'PATCH' | 'DELETE';

/** One outbox row as the server applies it. */
export interface PushOperation {
  /** The row's Idempotency-Key. */
  id: string;
  method: PushMethod;
  /** As the row keeps it: '/api/v1/companies/<id>/suggestions'. */
  path: string;
  body: unknown;
}

export interface PushRequest {
  method: 'POST';
  url: string;
  body: unknown;
  timeoutMs?: number;
}

/** What the transport reports; `HttpClient.exchange` of src/lib/http.ts answers this. */
export type PushExchangeAnswer =
  | { kind: 'answer'; status: number; body: unknown; retryAfter: string | null }
  | { kind: 'network'; message: string; timedOut?: boolean }
  | { kind: 'auth'; message: string };

export type PushExchange = (request: PushRequest) => Promise<PushExchangeAnswer>;

/** The server's answer for one operation, as its direct request would have had it. */
export interface OperationAnswer {
  id: string;
  status: number;
  body: unknown;
  retryAfter: string | null;
}

export type PushOutcome =
  /** One answer per operation, in the order of the operations given. */
  | { kind: 'results'; answers: OperationAnswer[] }
  /** The batch as a whole was answered with this non-2xx status: no operation is known to be applied. */
  | { kind: 'refused'; status: number; body: unknown; retryAfter: string | null }
  | { kind: 'network'; message: string; timedOut?: boolean }
  | { kind: 'auth'; message: string };

export interface PushOptions {
  /** Passed to the transport (its default deadline otherwise). */
  timeoutMs?: number;
  url?: string;
}

const PushAnswer = type({ data: type({ results: array(unknown()) }) });
const PushResult = type({
  id: string(),
  status: size(integer(), 100, 599),
  body: unknown(),
  retryAfter: optional(nullable(string())),
});

function transientFailure(id: string, message: string): OperationAnswer {
  return { id, status: 502, body: { message }, retryAfter: null };
}

/** Per operation, the server's result for it (by id, in order when an id repeats), or a 502 of its own. */
function answersOf(operations: readonly PushOperation[], body: unknown): OperationAnswer[] {
  if (!PushAnswer.is(body)) return operations.map((op) => transientFailure(op.id, 'The push answer is not readable'));
  const byId = new Map<string, OperationAnswer[]>();
  for (const result of body.data.results) {
    if (!PushResult.is(result)) continue;
    const answer: OperationAnswer = { id: result.id, status: result.status, body: result.body, retryAfter: result.retryAfter ?? null };
    const key = result.id.toLowerCase();
    byId.set(key, [...(byId.get(key) ?? []), answer]);
  }
  return operations.map((op) => {
    const answer = byId.get(op.id.toLowerCase())?.shift();
    return answer ? { ...answer, id: op.id } : transientFailure(op.id, 'The push answer has no result for this operation');
  });
}

/**
 * Sends `operations` (1..MAX_PUSH_OPERATIONS, and within MAX_PUSH_BYTES: see `fitBatch`) in one request and
 * maps the answer to one answer per operation. Never throws for what the network or the server does.
 */
export async function pushOperations(exchange: PushExchange, operations: readonly PushOperation[], options: PushOptions = {}): Promise<PushOutcome> {
  if (operations.length === 0) return { kind: 'results', answers: [] };
  if (operations.length > MAX_PUSH_OPERATIONS) throw new RangeError(`A push carries at most ${MAX_PUSH_OPERATIONS} operations`);
  const answer = await exchange({
    method: 'POST',
    url: options.url ?? PUSH_PATH,
    body: { operations: operations.map(({ id, method, path, body }) => ({ id, method, path, body: body ?? null })) },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  if (answer.kind !== 'answer') return answer;
  if (answer.status < 200 || answer.status >= 300) return { kind: 'refused', status: answer.status, body: answer.body, retryAfter: answer.retryAfter };
  return { kind: 'results', answers: answersOf(operations, answer.body) };
}

const encoder = new TextEncoder();
/** Bytes of `{"operations":[]}` around the operations. */
const ENVELOPE_BYTES = encoder.encode(JSON.stringify({ operations: [] })).byteLength;

/**
 * How many of the leading `operations` fit in one push: at most MAX_PUSH_OPERATIONS and MAX_PUSH_BYTES of
 * JSON, and never fewer than one (an operation too large alone is sent alone; the server then answers 413
 * for the batch, and the row should go on its own).
 */
export function fitBatch(operations: readonly PushOperation[], limits: { maxOperations?: number; maxBytes?: number } = {}): number {
  const maxOperations = limits.maxOperations ?? MAX_PUSH_OPERATIONS;
  const maxBytes = limits.maxBytes ?? MAX_PUSH_BYTES;
  let bytes = ENVELOPE_BYTES;
  let count = 0;
  for (const { id, method, path, body } of operations) {
    if (count >= maxOperations) break;
    // The comma between operations counts too.
    const size = encoder.encode(JSON.stringify({ id, method, path, body: body ?? null })).byteLength + (count > 0 ? 1 : 0);
    if (count > 0 && bytes + size > maxBytes) break;
    bytes += size;
    count += 1;
  }
  return count;
}
