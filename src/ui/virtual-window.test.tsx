import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PLAIN_UP_TO, useVirtualWindow } from './virtual-window';

const ROW = 50;
const idsOf = (count: number) => Array.from({ length: count }, (_, index) => `id-${index}`);

describe('useVirtualWindow', () => {
  it('puts a short list in the page whole, each row at its place, and reads all its rows', () => {
    const ids = idsOf(PLAIN_UP_TO);
    const { result } = renderHook(() => useVirtualWindow(ids, ROW));
    expect(result.current.items).toHaveLength(PLAIN_UP_TO);
    expect(result.current.items[3]).toEqual({ index: 3, key: 'id-3', start: 3 * ROW });
    expect(result.current.windowIds).toEqual(ids);
    expect(result.current.totalSize).toBe(PLAIN_UP_TO * ROW);
  });

  it('windows a long list: only the rows of the first screen and a few more, data read by chunks', () => {
    const ids = idsOf(5_000);
    const { result } = renderHook(() => useVirtualWindow(ids, ROW));
    const { items, windowIds, totalSize } = result.current;
    expect(totalSize).toBe(5_000 * ROW);
    // The virtualizer's first guess of the box is 800 px: 16 rows, and its overscan.
    expect(items.length).toBeGreaterThanOrEqual(16);
    expect(items.length).toBeLessThan(40);
    expect(items[0]).toMatchObject({ index: 0, key: 'id-0', start: 0 });
    expect(windowIds).toEqual(ids.slice(0, 80));
  });
});
