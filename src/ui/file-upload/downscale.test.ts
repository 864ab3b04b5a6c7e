import { afterEach, describe, expect, it, vi } from 'vitest';
import { downscaleImage, jpegName, MAX_IMAGE_SIDE, targetSize, type ImageTools } from './downscale';

describe('targetSize', () => {
  it('brings the long side of a landscape photo down to 1600 px, keeping its proportions', () => {
    expect(targetSize(4000, 3000)).toEqual({ width: 1600, height: 1200 });
  });

  it('brings the long side of a portrait photo down to 1600 px', () => {
    expect(targetSize(3024, 4032)).toEqual({ width: 1200, height: 1600 });
  });

  it('leaves an image that already fits alone (null), the limit itself included', () => {
    expect(targetSize(1600, 1200)).toBeNull();
    expect(targetSize(1200, 1600)).toBeNull();
    expect(targetSize(800, 600)).toBeNull();
  });

  it('rounds to whole pixels and never gives a side of 0', () => {
    expect(targetSize(1601, 3)).toEqual({ width: 1600, height: 3 });
    expect(targetSize(10000, 1)).toEqual({ width: 1600, height: 1 });
  });

  it('takes another limit', () => {
    expect(targetSize(1000, 500, 100)).toEqual({ width: 100, height: 50 });
  });

  it('refuses sizes that are not usable', () => {
    expect(targetSize(0, 100)).toBeNull();
    expect(targetSize(Number.NaN, 100)).toBeNull();
    expect(targetSize(Number.POSITIVE_INFINITY, 100)).toBeNull();
  });

  it('uses 1600 px as the default limit', () => {
    expect(MAX_IMAGE_SIDE).toBe(1600);
  });
});

describe('jpegName', () => {
  it('gives the re-encoded file a .jpg name', () => {
    expect(jpegName('photo.png')).toBe('photo.jpg');
    expect(jpegName('IMG_0001.JPEG')).toBe('IMG_0001.jpg');
    expect(jpegName('scan')).toBe('scan.jpg');
    expect(jpegName('.hidden')).toBe('.hidden.jpg');
  });
});

/** A decoded image of the given size; `closed` tells whether its memory was given back. */
function fakeBitmap(width: number, height: number) {
  const state = { closed: false };
  const bitmap = { width, height, close: () => (state.closed = true) } as unknown as ImageBitmap;
  return Object.assign(bitmap, { state });
}

function fileOf(bytes: number, name = 'photo.png', type = 'image/png') {
  return new File([new Uint8Array(bytes)], name, { type });
}

describe('downscaleImage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('re-encodes a large photo as a JPEG of at most 1600 px', async () => {
    const bitmap = fakeBitmap(4000, 3000);
    const decode = vi.fn(() => Promise.resolve(bitmap));
    const encodeJpeg = vi.fn(() => Promise.resolve(new Blob([new Uint8Array(500)], { type: 'image/jpeg' })));
    const tools: ImageTools = { createImageBitmap: decode, encodeJpeg };
    const original = fileOf(5000);
    const result = await downscaleImage(original, MAX_IMAGE_SIDE, tools);
    expect(encodeJpeg).toHaveBeenCalledWith(bitmap, { width: 1600, height: 1200 }, expect.any(Number));
    expect(decode).toHaveBeenCalledWith(original, { imageOrientation: 'from-image' });
    expect(result).not.toBe(original);
    expect(result.type).toBe('image/jpeg');
    expect(result.name).toBe('photo.jpg');
    expect(result.size).toBe(500);
    expect(bitmap.state.closed).toBe(true);
  });

  it('sends a small image as it is, without encoding', async () => {
    const bitmap = fakeBitmap(800, 600);
    const encodeJpeg = vi.fn();
    const tools: ImageTools = { createImageBitmap: vi.fn(() => Promise.resolve(bitmap)), encodeJpeg };
    const original = fileOf(5000);
    expect(await downscaleImage(original, MAX_IMAGE_SIDE, tools)).toBe(original);
    expect(encodeJpeg).not.toHaveBeenCalled();
    expect(bitmap.state.closed).toBe(true);
  });

  it('sends the file as it is when the browser cannot decode it', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const encodeJpeg = vi.fn();
    const tools: ImageTools = { createImageBitmap: vi.fn(() => Promise.reject(new DOMException('bad', 'InvalidStateError'))), encodeJpeg };
    const original = fileOf(10);
    expect(await downscaleImage(original, MAX_IMAGE_SIDE, tools)).toBe(original);
    expect(encodeJpeg).not.toHaveBeenCalled();
  });

  it('sends the file as it is when the browser has no createImageBitmap', async () => {
    const original = fileOf(10);
    expect(await downscaleImage(original, MAX_IMAGE_SIDE, { encodeJpeg: vi.fn() })).toBe(original);
  });

  it('keeps the original when the JPEG would not be smaller, or no canvas could draw it', async () => {
    const original = fileOf(100);
    const bigger: ImageTools = {
      createImageBitmap: () => Promise.resolve(fakeBitmap(4000, 3000)),
      encodeJpeg: () => Promise.resolve(new Blob([new Uint8Array(200)])),
    };
    expect(await downscaleImage(original, MAX_IMAGE_SIDE, bigger)).toBe(original);
    const noCanvas: ImageTools = { createImageBitmap: () => Promise.resolve(fakeBitmap(4000, 3000)), encodeJpeg: () => Promise.resolve(null) };
    expect(await downscaleImage(original, MAX_IMAGE_SIDE, noCanvas)).toBe(original);
  });
});
