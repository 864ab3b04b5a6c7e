import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyModule, useLazyModule, type LazyModule } from './lazy-module';

afterEach(cleanup);

/** A module import the test settles by hand. */
function heldImport<T>() {
  const calls: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }> = [];
  const importModule = () => new Promise<T>((resolve, reject) => calls.push({ resolve, reject }));
  return { importModule, calls };
}

describe('lazyModule', () => {
  it('fetches once for every caller and keeps the module', async () => {
    const held = heldImport<{ answer: number }>();
    const lazy = lazyModule(held.importModule);
    expect(lazy.current).toBeNull();
    const first = lazy.load();
    const second = lazy.load();
    expect(held.calls).toHaveLength(1);
    held.calls[0]?.resolve({ answer: 42 });
    expect(await first).toEqual({ answer: 42 });
    expect(await second).toBe(await first);
    expect(lazy.current).toEqual({ answer: 42 });
    await lazy.load();
    expect(held.calls).toHaveLength(1);
  });

  it('forgets a failed fetch, so the next use tries again', async () => {
    const held = heldImport<string>();
    const lazy = lazyModule(held.importModule);
    const failed = lazy.load();
    held.calls[0]?.reject(new Error('chunk missing'));
    await expect(failed).rejects.toThrow('chunk missing');
    expect(lazy.current).toBeNull();
    const again = lazy.load();
    expect(held.calls).toHaveLength(2);
    held.calls[1]?.resolve('loaded');
    expect(await again).toBe('loaded');
  });
});

function Shows({ lazy, wanted }: { lazy: LazyModule<() => string>; wanted: boolean }) {
  const { value, retry } = useLazyModule(lazy, wanted, 'The test module');
  if (value === 'failed') {
    return (
      <button type="button" onClick={retry}>
        retry
      </button>
    );
  }
  return <p>{value === null ? 'waiting' : value()}</p>;
}

describe('useLazyModule', () => {
  it('fetches only while wanted, and hands over a module that is a function as it is', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const held = heldImport<() => string>();
    const lazy = lazyModule(held.importModule);
    const { rerender } = render(<Shows lazy={lazy} wanted={false} />);
    expect(held.calls).toHaveLength(0);
    rerender(<Shows lazy={lazy} wanted />);
    expect(held.calls).toHaveLength(1);
    expect(screen.getByText('waiting')).toBeTruthy();

    await act(() => Promise.resolve(held.calls[0]?.reject(new Error('offline'))));
    await act(() => Promise.resolve(screen.getByRole('button', { name: 'retry' }).click()));
    expect(held.calls).toHaveLength(2);
    await act(() => Promise.resolve(held.calls[1]?.resolve(() => 'the module')));
    expect(screen.getByText('the module')).toBeTruthy();
    vi.restoreAllMocks();
  });
});
