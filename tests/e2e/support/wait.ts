/** Polls `probe` until it returns a truthy value; fails with `message` and the last value after `timeoutMs`. */
export async function waitUntil<T>(
  probe: () => Promise<T> | T,
  { timeoutMs = 10_000, intervalMs = 100, message = 'condition' }: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${message} (last: ${String(last)})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
