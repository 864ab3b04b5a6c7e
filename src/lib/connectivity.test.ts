import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { PROBE_INTERVAL_MS, PROBE_TIMEOUT_MS, createConnectivity, useConnectivity } from './connectivity';

const answer = (status: number, text: string, type = 'application/json') =>
  Promise.resolve(new Response(text, { status, headers: { 'Content-Type': type } }));

describe('connectivity', () => {
  it('is online only when the health probe answers { data: { status: "ok" } }, asked without cache', async () => {
    const fetch = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => answer(200, JSON.stringify({ data: { status: 'ok' } })));
    const connectivity = createConnectivity({ fetch: fetch });
    expect(await connectivity.probe()).toBe('online');
    expect(fetch.mock.calls[0]?.[0]).toBe('/main-service/api/v1/health');
    expect(fetch.mock.calls[0]?.[1]?.cache).toBe('no-store');
  });

  it('is online with the answer the main-service really gives, message included', async () => {
    const connectivity = createConnectivity({ fetch: () => answer(200, JSON.stringify({ data: { status: 'ok' }, message: 'OK' })) });
    expect(await connectivity.probe()).toBe('online');
  });

  it("counts a captive portal's HTML, the service worker's offline answer and no answer as offline", async () => {
    const answers = [
      () => answer(200, '<html>Log in to the Wi-Fi</html>', 'text/html'),
      () => answer(503, JSON.stringify({ message: 'offline' })),
      () => answer(200, JSON.stringify({ data: { status: 'degraded' } })),
      () => Promise.reject(new TypeError('Failed to fetch')),
    ];
    for (const next of answers) {
      const connectivity = createConnectivity({ fetch: next });
      expect(await connectivity.probe()).toBe('offline');
    }
  });

  it('re-probes on online, offline and focus events and tells subscribers and the hook', async () => {
    let up = false;
    const fetch = () => (up ? answer(200, JSON.stringify({ data: { status: 'ok' } })) : Promise.reject(new TypeError('down')));
    const events = new EventTarget();
    const connectivity = createConnectivity({
      fetch: fetch,
      events: events,
      setTimeout: () => 1,
      clearTimeout: () => undefined,
    });
    const seen: string[] = [];
    connectivity.subscribe((state) => seen.push(state));
    const { result } = renderHook(() => useConnectivity(connectivity));
    connectivity.start();
    await vi.waitFor(() => expect(connectivity.get()).toBe('offline'));
    up = true;
    await act(async () => {
      events.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect(connectivity.get()).toBe('online'));
    });
    expect(result.current).toBe('online');
    up = false;
    events.dispatchEvent(new Event('focus'));
    await vi.waitFor(() => expect(connectivity.get()).toBe('offline'));
    expect(seen).toEqual(['offline', 'online', 'offline']);
    connectivity.stop();
  });

  it('gives a probe a short deadline, so a hanging network reads as offline', async () => {
    const deadlines: number[] = [];
    const hang = (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('timed out', 'TimeoutError'))));
    const controllers: AbortController[] = [];
    const connectivity = createConnectivity({
      fetch: hang,
      deadline: (ms) => {
        deadlines.push(ms);
        const controller = new AbortController();
        controllers.push(controller);
        return controller.signal;
      },
    });
    const answer = connectivity.probe();
    // The deadline passes (fired by hand: no test waits on the wall clock).
    controllers[0]?.abort();
    expect(await answer).toBe('offline');
    expect(deadlines).toEqual([PROBE_TIMEOUT_MS]);
    expect(PROBE_TIMEOUT_MS).toBeLessThanOrEqual(5_000);
  });

  it('probes every 30 s, and in the urgent mode after 2 s, 4 s, then every 8 s, one probe at a time', async () => {
    let time = 0;
    let up = false;
    let probes = 0;
    const armed: { cb: () => void; ms: number }[] = [];
    const connectivity = createConnectivity({
      fetch: () => {
        probes += 1;
        return up ? answer(200, JSON.stringify({ data: { status: 'ok' } })) : Promise.reject(new TypeError('down'));
      },
      now: () => time,
      setTimeout: (cb, ms) => {
        armed.push({ cb, ms });
        return armed.length;
      },
      clearTimeout: (handle) => {
        const timer = armed[(handle as number) - 1];
        if (timer) timer.cb = () => undefined;
      },
    });
    const answers: string[] = [];
    connectivity.onProbe((state) => answers.push(state));
    /** Lets the clock reach the last armed timer and fires it; returns its delay. */
    const fireLast = async () => {
      const timer = armed.at(-1);
      if (!timer) throw new Error('nothing armed');
      time += timer.ms;
      const before = probes;
      timer.cb();
      await vi.waitFor(() => expect(answers.length).toBe(before + 1));
      return timer.ms;
    };

    connectivity.start();
    await vi.waitFor(() => expect(answers).toEqual(['offline']));
    expect(armed.at(-1)?.ms).toBe(PROBE_INTERVAL_MS);

    connectivity.setUrgent(true);
    expect(connectivity.isUrgent()).toBe(true);
    const delays = [await fireLast(), await fireLast(), await fireLast(), await fireLast()];
    expect(delays).toEqual([2_000, 4_000, 8_000, 8_000]);
    // A probe asked for meanwhile (an event) shares the running one.
    up = true;
    const [a, b] = [connectivity.probe(), connectivity.probe()];
    expect(await a).toBe('online');
    expect(await b).toBe('online');
    expect(probes).toBe(6);
    expect(answers.at(-1)).toBe('online');

    // Nothing waits any more: back to every 30 s, and a new urgent episode starts again at 2 s.
    connectivity.setUrgent(false);
    expect(await fireLast()).toBe(PROBE_INTERVAL_MS);
    connectivity.setUrgent(true);
    expect(await fireLast()).toBe(2_000);
    connectivity.stop();
  });

  it('re-probes when the document becomes visible', async () => {
    let probes = 0;
    const visibility = Object.assign(new EventTarget(), { visibilityState: 'hidden' });
    const connectivity = createConnectivity({
      fetch: () => {
        probes += 1;
        return answer(200, JSON.stringify({ data: { status: 'ok' } }));
      },
      visibility,
      setTimeout: () => 1,
      clearTimeout: () => undefined,
    });
    connectivity.start();
    await vi.waitFor(() => expect(connectivity.get()).toBe('online'));
    visibility.visibilityState = 'visible';
    visibility.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(probes).toBe(2));
    connectivity.stop();
  });
});
