// What identifies a request for its Idempotency-Key, on both sides: the server hashes it to refuse the same key
// with another request (422), the client keeps a key for as long as the user submits the same thing. One
// definition, so the two can never disagree on what "the same request" is.

/** The value with every object's keys sorted, recursively (JSON key order carries no meaning). */
export function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonicalJson((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** The text a request is identified by: the method, the path without its query, the canonical body. */
export function requestIdentity(method: string, path: string, body: unknown): string {
  return JSON.stringify([method.toUpperCase(), path.split('?')[0], canonicalJson(body ?? null)]);
}
