import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthorizedPhoto } from './authorized-photo';
import type { LoadImageFn } from './file-upload/types';

/** A loader whose calls wait until the test answers them. */
function controlledLoader() {
  const calls: { link: string; resolve: (url: string) => void; reject: (error: Error) => void }[] = [];
  const loadImage = vi.fn<LoadImageFn>(
    (link) =>
      new Promise<string>((resolve, reject) => {
        calls.push({ link, resolve, reject });
      }),
  );
  return { loadImage, calls };
}

async function settle(action: () => void): Promise<void> {
  await act(async () => {
    action();
    await Promise.resolve();
  });
}

let revoked: string[];

beforeEach(() => {
  revoked = [];
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => {
    revoked.push(url);
  });
  vi.spyOn(console, 'debug').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('authorized photo', () => {
  it('stands in with an empty box named like the photo until the loader gives the picture', async () => {
    const { loadImage, calls } = controlledLoader();
    const { container } = render(<AuthorizedPhoto imageLink="/uploads/a.png" name="pump.png" loadImage={loadImage} className="project-photo" />);
    const placeholder = screen.getByRole('img', { name: 'pump.png' });
    expect(placeholder.tagName).toBe('SPAN');
    expect(placeholder.className).toBe('project-photo project-photo--empty');
    expect(loadImage).toHaveBeenCalledWith('/uploads/a.png');

    await settle(() => calls[0]?.resolve('blob:a'));
    const image = container.querySelector('img');
    expect(image?.getAttribute('src')).toBe('blob:a');
    expect(image?.getAttribute('alt')).toBe('pump.png');
    expect(image?.className).toBe('project-photo');
  });

  it('keeps the placeholder when the photo cannot load', async () => {
    const { loadImage, calls } = controlledLoader();
    const { container } = render(<AuthorizedPhoto imageLink="/uploads/a.png" name="pump.png" loadImage={loadImage} className="suggestion-photo" />);
    await settle(() => calls[0]?.reject(new Error('offline')));
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'pump.png' }).className).toBe('suggestion-photo suggestion-photo--empty');
  });

  it('revokes the picture when the photo goes, and one that arrives after it went', async () => {
    const { loadImage, calls } = controlledLoader();
    const first = render(<AuthorizedPhoto imageLink="/uploads/a.png" name="a.png" loadImage={loadImage} className="photo" />);
    await settle(() => calls[0]?.resolve('blob:a'));
    first.unmount();
    expect(revoked).toEqual(['blob:a']);

    const second = render(<AuthorizedPhoto imageLink="/uploads/b.png" name="b.png" loadImage={loadImage} className="photo" />);
    second.unmount();
    await settle(() => calls[1]?.resolve('blob:b'));
    expect(revoked).toEqual(['blob:a', 'blob:b']);
  });

  it('shows the placeholder, not the previous picture, while a new link loads', async () => {
    const { loadImage, calls } = controlledLoader();
    const { container, rerender } = render(<AuthorizedPhoto imageLink="/uploads/a.png" name="a.png" loadImage={loadImage} className="photo" />);
    await settle(() => calls[0]?.resolve('blob:a'));
    rerender(<AuthorizedPhoto imageLink="/uploads/b.png" name="b.png" loadImage={loadImage} className="photo" />);
    expect(revoked).toEqual(['blob:a']);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'b.png' })).toBeTruthy();
    await settle(() => calls[1]?.resolve('blob:b'));
    expect(container.querySelector('img')?.getAttribute('src')).toBe('blob:b');
  });
});
