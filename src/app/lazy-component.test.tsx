import { Suspense, useEffect, type ComponentType } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyComponent } from './lazy-page';

afterEach(() => {
  cleanup();
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('lazyComponent', () => {
  it('renders at once, never through its loading fallback, when its module loaded before the render', async () => {
    const part = lazyComponent<{ name: string }>(() => Promise.resolve({ default: ({ name }: { name: string }) => <p>Hello, {name}</p> }));
    await part.load();
    const fallback = vi.fn(() => <p>Loading</p>);
    const Fallback = fallback as ComponentType;
    render(
      <Suspense fallback={<Fallback />}>
        <part.Component name="Anna" />
      </Suspense>,
    );
    // Synchronously after the first render: React.lazy would have shown the fallback here, whatever its promise.
    expect(screen.getByText('Hello, Anna')).toBeTruthy();
    expect(fallback).not.toHaveBeenCalled();
  });

  it('goes through the fallback before its module arrives, and is not mounted again when it does', async () => {
    const module = deferred<{ default: ComponentType }>();
    const part = lazyComponent(() => module.promise);
    const mounts = vi.fn<() => void>();
    function Page() {
      useEffect(() => {
        mounts();
      }, []);
      return <p>The page</p>;
    }
    const view = render(
      <Suspense fallback={<p>Loading</p>}>
        <part.Component />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeTruthy();
    await act(() => {
      module.resolve({ default: Page });
      return module.promise;
    });
    expect(await screen.findByText('The page')).toBeTruthy();
    view.rerender(
      <Suspense fallback={<p>Loading</p>}>
        <part.Component />
      </Suspense>,
    );
    expect(screen.getByText('The page')).toBeTruthy();
    expect(mounts).toHaveBeenCalledTimes(1);
  });

  it('loads once for every caller, and tries again after a failed load', async () => {
    const Page = () => <p>The page</p>;
    const load = vi.fn<() => Promise<{ default: ComponentType }>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ default: Page });
    const part = lazyComponent(load);
    await expect(part.load()).rejects.toThrow('offline');
    const [first, second] = await Promise.all([part.load(), part.load()]);
    expect(first.default).toBe(Page);
    expect(second).toBe(first);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
