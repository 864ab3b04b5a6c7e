import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { createConnectivity, useConnectivity } from './connectivity';

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
      setInterval: () => 1,
      clearInterval: () => undefined,
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
});
