// Test double of the main-service for the outbox and pull tests (not used by the app): proposals and
// uploads with the Idempotency-Key rules of docs/api.md (replay answers the stored response, another body
// under the same key 422, a key still running 409), bearer tokens that can be expired on demand, the refresh
// endpoint of the client's transport (a new access token for a valid refresh token, which is kept: rotation
// is the real server's, exercised by the integration tests; refused once revoked), and fault
// injection per request (no answer, answer lost after commit, a status, a hang), and a hook that runs
// between the server's work and the client seeing its answer. The push (POST /sync/push, docs/api.md "Push")
// as the real server has it: 1-100 operations applied in order, each under its own key with the hash of its
// direct call (so a row sent alone and then in a batch is one request), a result per operation shaped as its
// direct answer, a refused operation leaving no key behind, and after a 5xx every later operation 503 'not
// applied'; only proposal creation is pushable. `pushAvailable = false` makes it an older server without
// push (404), and `operationFault` fails single operations inside a batch.
import { type Suggestion, SuggestionInput, dueDateOf } from '../../domain/suggestion';

export type Fault =
  | { kind: 'network' }
  | { kind: 'lost-answer' }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'hang' };

export interface FakeCall {
  method: string;
  path: string;
  key: string | null;
  token: string | null;
  /** The `Language` header. */
  language: string | null;
}

const API = '/main-service/api/v1';
const REFRESH_PATH = `${API}/auth/refresh-token`;
const PUSH_PATH = `${API}/sync/push`;
const SUGGESTIONS_PATH = /^\/main-service\/api\/v1\/companies\/([^/]+)\/suggestions$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One operation of a push as the fake received it. */
export interface FakePushOperation {
  id: string;
  method: string;
  /** Under /main-service, as the outbox row keeps it: '/api/v1/companies/<id>/suggestions'. */
  path: string;
  body: unknown;
}

/** A status the fake answers for one operation of a batch instead of running it. */
export interface OperationFault {
  status: number;
  body?: unknown;
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

export class FakeMainService {
  readonly userId: string;
  readonly calls: FakeCall[] = [];
  readonly suggestions = new Map<string, Suggestion>();
  readonly uploads = new Map<string, { bytes: Uint8Array; name: string; type: string }>();
  /** How many times each key's change was really carried out (must never exceed 1). */
  readonly executions = new Map<string, number>();
  readonly validTokens = new Set<string>();
  readonly validRefreshTokens = new Set<string>();
  /** Decides a fault for each call; undefined lets it through. */
  fault: (call: FakeCall) => Fault | undefined = () => undefined;
  /** Runs after the server carried a call out, before the client sees the answer (a user acting meanwhile). */
  afterHandle: (call: FakeCall) => void | Promise<void> = () => undefined;
  /** false: an older server without POST /sync/push (it answers 404 like any unknown route). */
  pushAvailable = true;
  /** Decides a fault for one operation inside a push; undefined runs it. */
  operationFault: (operation: FakePushOperation) => OperationFault | undefined = () => undefined;
  /** The operations of every push that reached the handler, one list per request, in the order sent. */
  readonly pushes: FakePushOperation[][] = [];
  /** Requests answered with the 'hang' fault so far (each waits until the client gives up on it). */
  hangs = 0;
  /** Largest number of requests in flight at once. */
  maxInFlight = 0;
  private inFlight = 0;
  private readonly stored = new Map<string, { hash: string; status: number; body: unknown } | 'running'>();
  private counter = 0;

  constructor(userId = '00000000-0000-4000-8000-000000000001', token = 'token-1', refreshToken = 'refresh-1') {
    this.userId = userId;
    this.validTokens.add(token);
    this.validRefreshTokens.add(refreshToken);
  }

  readonly fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    const call: FakeCall = {
      method: init?.method ?? 'GET',
      path: url.split('?')[0] ?? url,
      key: headers.get('Idempotency-Key'),
      token: headers.get('Authorization')?.replace(/^Bearer /, '') ?? null,
      language: headers.get('Language'),
    };
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await Promise.resolve();
      const fault = this.fault(call);
      if (fault?.kind === 'network') throw new TypeError('Failed to fetch');
      if (fault?.kind === 'hang') {
        this.hangs += 1;
        return await new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation timed out.', 'TimeoutError')));
        });
      }
      this.calls.push(call);
      if (fault?.kind === 'status') return json(fault.status, fault.body ?? { message: `fault ${fault.status}` }, fault.headers);
      const response = await this.handle(call, init?.body ?? null);
      await this.afterHandle(call);
      if (fault?.kind === 'lost-answer') throw new TypeError('Failed to fetch (answer lost)');
      return response;
    } finally {
      this.inFlight -= 1;
    }
  }) as typeof fetch;

  /** Makes every token issued so far expired. */
  expireTokens(): void {
    this.validTokens.clear();
  }

  /** Refresh calls that reached the server. */
  get refreshCalls(): number {
    return this.calls.filter((call) => call.path === REFRESH_PATH).length;
  }

  /** Every refresh token is refused from now on (the session ended on the server). */
  revokeRefreshTokens(): void {
    this.validRefreshTokens.clear();
  }

  issueToken(): string {
    this.counter += 1;
    const token = `token-r${this.counter}`;
    this.validTokens.add(token);
    return token;
  }

  private async handle(call: FakeCall, body: BodyInit | null): Promise<Response> {
    if (call.path === REFRESH_PATH) {
      if (call.method !== 'POST' || !call.token || !this.validRefreshTokens.has(call.token)) return json(401, { message: 'Refresh token is invalid' });
      return json(200, { access_token: this.issueToken(), refresh_token: call.token });
    }
    if (!call.token || !this.validTokens.has(call.token)) return json(403, { message: 'Token Expired.' });
    if (call.method === 'POST' && call.path === PUSH_PATH && this.pushAvailable) return this.push(body);
    const upload = call.method === 'POST' && call.path === `${API}/files/upload`;
    const suggestionsMatch = SUGGESTIONS_PATH.exec(call.path);
    if (!upload && !(call.method === 'POST' && suggestionsMatch)) return json(404, { message: 'not found' });
    if (call.key === null) return json(400, { message: 'Idempotency-Key required by this fake' });

    let hash: string;
    let file: { bytes: Uint8Array; name: string; type: string } | null = null;
    let parsed: unknown = null;
    if (upload) {
      const part = body instanceof FormData ? body.get('file') : null;
      if (!(part instanceof Blob)) return json(400, { message: 'no file' });
      const bytes = new Uint8Array(await part.arrayBuffer());
      file = { bytes, name: part instanceof File ? part.name : 'file', type: part.type };
      hash = `upload:${Array.from(bytes).join(',')}`;
    } else {
      hash = `${call.method} ${call.path} ${typeof body === 'string' ? body : ''}`;
      parsed = typeof body === 'string' ? (JSON.parse(body) as unknown) : null;
    }

    const scopedKey = `${this.userId}:${call.key}`;
    const previous = this.stored.get(scopedKey);
    if (previous === 'running') return json(409, { message: 'still running' }, { 'Retry-After': '1' });
    if (previous) {
      if (previous.hash !== hash) return json(422, { message: 'Idempotency-Key reused with another request' });
      return json(previous.status, previous.body, { 'Idempotent-Replayed': 'true' });
    }
    this.stored.set(scopedKey, 'running');
    const answer = file ? this.storeUpload(file) : this.createSuggestion(suggestionsMatch?.[1] ?? '', parsed);
    if (answer.status < 500) this.executions.set(call.key, (this.executions.get(call.key) ?? 0) + 1);
    // As the main-service: a refusal rolls its key back with the change, so a corrected request may reuse it.
    if (answer.status < 400) this.stored.set(scopedKey, { hash, status: answer.status, body: answer.body });
    else this.stored.delete(scopedKey);
    return json(answer.status, answer.body);
  }

  /** POST /sync/push: the operations in order, each as its direct call (see the header). */
  private push(body: BodyInit | null): Response {
    let parsed: unknown;
    try {
      parsed = typeof body === 'string' ? JSON.parse(body) : null;
    } catch {
      parsed = null;
    }
    const operations = typeof parsed === 'object' && parsed !== null ? (parsed as { operations?: unknown }).operations : undefined;
    const valid =
      Array.isArray(operations) &&
      operations.length >= 1 &&
      operations.length <= 100 &&
      operations.every((op: unknown) => {
        const { id, method, path } = (typeof op === 'object' && op !== null ? op : {}) as Record<string, unknown>;
        return typeof id === 'string' && UUID.test(id) && (method === 'POST' || method === 'PATCH' || method === 'DELETE') && typeof path === 'string';
      });
    if (!valid) return json(400, { message: 'invalid batch', errors: { operations: 'invalid' } });
    const batch = (operations as Array<{ id: string; method: string; path: string; body?: unknown }>).map(
      (op): FakePushOperation => ({ id: op.id, method: op.method, path: op.path, body: op.body ?? null }),
    );
    this.pushes.push(batch);
    const results: Array<{ id: string; status: number; body: unknown; retryAfter?: string }> = [];
    let stopped = false;
    for (const op of batch) {
      if (stopped) {
        results.push({ id: op.id, status: 503, body: { message: 'Not applied: an earlier operation of the same batch failed on the server. Send it again.' } });
        continue;
      }
      const result = this.applyOperation(op);
      results.push(result);
      if (result.status >= 500) stopped = true;
    }
    return json(200, { data: { results }, message: 'OK' });
  }

  /** One pushed operation, keyed and hashed as its direct call would be. */
  private applyOperation(op: FakePushOperation): { id: string; status: number; body: unknown; retryAfter?: string } {
    const fullPath = `/main-service${op.path}`;
    const match = SUGGESTIONS_PATH.exec(fullPath);
    if (op.method !== 'POST' || !match) return { id: op.id, status: 404, body: { message: 'not found' } };
    const fault = this.operationFault(op);
    // A refusal or failure rolls the operation back, key included, as the real server's savepoint does.
    if (fault) return { id: op.id, status: fault.status, body: fault.body ?? { message: `fault ${fault.status}` } };
    const hash = `${op.method} ${fullPath} ${op.body === null ? '' : JSON.stringify(op.body)}`;
    const scopedKey = `${this.userId}:${op.id}`;
    const previous = this.stored.get(scopedKey);
    if (previous === 'running') return { id: op.id, status: 409, body: { message: 'still running' }, retryAfter: '1' };
    if (previous) {
      if (previous.hash !== hash) return { id: op.id, status: 422, body: { message: 'Idempotency-Key reused with another request' } };
      return { id: op.id, status: previous.status, body: previous.body };
    }
    const answer = this.createSuggestion(match[1] ?? '', op.body);
    if (answer.status < 400) {
      this.executions.set(op.id, (this.executions.get(op.id) ?? 0) + 1);
      this.stored.set(scopedKey, { hash, status: answer.status, body: answer.body });
    }
    return { id: op.id, ...answer };
  }

  private storeUpload(file: { bytes: Uint8Array; name: string; type: string }): { status: number; body: unknown } {
    const imageId = crypto.randomUUID();
    this.uploads.set(imageId, file);
    return { status: 200, body: { status: 200, message: 'OK', data: { imageId, imageLink: `/uploads/${imageId}`, name: file.name } } };
  }

  private createSuggestion(companyId: string, input: unknown): { status: number; body: unknown } {
    if (!SuggestionInput.is(input)) return { status: 400, body: { message: 'invalid', errors: { title: 'invalid' } } };
    const missing = input.imageIds.filter((id) => !this.uploads.has(id));
    if (missing.length > 0) return { status: 400, body: { message: 'unknown image', errors: { imageIds: 'unknown' } } };
    const now = new Date().toISOString();
    const id = input.id ?? crypto.randomUUID();
    if (this.suggestions.has(id)) return { status: 409, body: { message: 'exists' } };
    const suggestion: Suggestion = {
      id,
      companyId,
      title: input.title,
      problem: input.problem,
      solution: input.solution,
      expectedEffect: input.expectedEffect,
      effectEstimate: input.effectEstimate ?? null,
      departmentId: input.departmentId,
      goalId: input.goalId ?? null,
      images: input.imageIds.map((imageId) => ({ imageId, imageLink: `/uploads/${imageId}`, name: this.uploads.get(imageId)?.name ?? '' })),
      authorId: this.userId,
      authorName: 'Test Employee',
      status: 'UNDER_CONSIDERATION',
      dueAt: dueDateOf(now),
      submittedAt: input.submittedAt ?? now,
      receivedAt: now,
      reviewComment: null,
      history: [{ at: now, kind: 'SUBMITTED', byUserId: this.userId, comment: null }],
      createdAt: now,
      updatedAt: now,
    };
    this.suggestions.set(id, suggestion);
    return { status: 201, body: { data: suggestion, message: 'OK' } };
  }
}
