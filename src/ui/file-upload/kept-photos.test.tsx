import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useKeptPhotos } from './kept-photos';

function photo(name: string, bytes: number[]): File {
  return new File([new Uint8Array(bytes)], name, { type: 'image/png' });
}

let made: string[];
let revoked: string[];

beforeEach(() => {
  made = [];
  revoked = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:kept-${made.length}`;
    made.push(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => {
    revoked.push(url);
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('kept photos', () => {
  it('answers an upload at once as ready, with an object URL of the file as its link, sending nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { result } = renderHook(() => useKeptPhotos());
    let answer: Awaited<ReturnType<typeof result.current.field.upload>> = null;
    await act(async () => {
      answer = await result.current.field.upload(photo('pump.png', [1, 2, 3]), () => undefined);
    });
    expect(answer).toMatchObject({ status: 200, data: { imageLink: 'blob:kept-0', name: 'pump.png' } });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('reads the bytes of the photos the field holds, in its order, and none it dropped', async () => {
    const { result } = renderHook(() => useKeptPhotos());
    const ids: string[] = [];
    await act(async () => {
      for (const [name, bytes] of [
        ['a.png', [1]],
        ['b.png', [2, 2]],
        ['c.png', [3, 3, 3]],
      ] as const) {
        const answer = await result.current.field.upload(photo(name, [...bytes]), () => undefined);
        if (answer?.data) ids.push(answer.data.imageId);
      }
    });
    act(() => result.current.field.onChange([ids[2] ?? '', ids[0] ?? '']));
    expect(result.current.field.value).toEqual([ids[2], ids[0]]);

    const photos = await result.current.read();
    expect(photos.map((kept) => ({ name: kept.name, type: kept.type, bytes: [...new Uint8Array(kept.data)] }))).toEqual([
      { name: 'c.png', type: 'image/png', bytes: [3, 3, 3] },
      { name: 'a.png', type: 'image/png', bytes: [1] },
    ]);
  });

  it('revokes the links it made when the form goes', async () => {
    const { result, unmount } = renderHook(() => useKeptPhotos());
    await act(async () => {
      await result.current.field.upload(photo('a.png', [1]), () => undefined);
      await result.current.field.upload(photo('b.png', [2]), () => undefined);
    });
    expect(revoked).toEqual([]);
    unmount();
    expect(revoked).toEqual(['blob:kept-0', 'blob:kept-1']);
  });
});
