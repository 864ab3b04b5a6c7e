// Photos are made smaller on the device before they leave it: a phone camera's 4000×3000 JPEG of 5 MB
// becomes about 1600×1200 and a few hundred KB, which matters on a slow or metered connection.
// Anything the browser cannot decode, or that is already small, goes as it is (the server decides).

import { MAX_IMAGE_SIDE } from './types';

export { MAX_IMAGE_SIDE };
export const JPEG_QUALITY = 0.85;

export interface Size {
  width: number;
  height: number;
}

/**
 * The size to scale an image of `width`×`height` down to so its long side is at most `maxSide`,
 * keeping its proportions; null when it already fits (or the size is not usable).
 */
export function targetSize(width: number, height: number, maxSide: number = MAX_IMAGE_SIDE): Size | null {
  if (!(width > 0 && height > 0 && maxSide > 0) || !Number.isFinite(width) || !Number.isFinite(height)) return null;
  const longSide = Math.max(width, height);
  if (longSide <= maxSide) return null;
  const scale = maxSide / longSide;
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** `photo.png` -> `photo.jpg`: the name of the re-encoded file. */
export function jpegName(name: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}.jpg`;
}

/** What the browser offers for decoding and drawing; a parameter so tests can stand in for it. */
export interface ImageTools {
  createImageBitmap?: (image: Blob, options?: ImageBitmapOptions) => Promise<ImageBitmap>;
  /** A JPEG of `bitmap` drawn at `size`, or null when no canvas is available. */
  encodeJpeg?: (bitmap: ImageBitmap, size: Size, quality: number) => Promise<Blob | null>;
}

async function encodeJpegInBrowser(bitmap: ImageBitmap, size: Size, quality: number): Promise<Blob | null> {
  const draw = (context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D) => {
    // JPEG has no transparency: a transparent PNG would otherwise turn black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size.width, size.height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
  };
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    draw(context);
    return canvas.convertToBlob({ type: 'image/jpeg', quality });
  }
  if (typeof document === 'undefined') return null;
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  draw(context);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

function browserTools(): ImageTools {
  return {
    ...(typeof createImageBitmap === 'function' ? { createImageBitmap: (image: Blob, options?: ImageBitmapOptions) => createImageBitmap(image, options) } : {}),
    encodeJpeg: encodeJpegInBrowser,
  };
}

/**
 * `file` as a JPEG whose long side is at most `maxSide`, or `file` itself when it is small already,
 * cannot be decoded here, or would not get smaller.
 */
export async function downscaleImage(file: File, maxSide: number = MAX_IMAGE_SIDE, tools: ImageTools = browserTools()): Promise<File> {
  if (!tools.createImageBitmap || !tools.encodeJpeg) return file;
  let bitmap: ImageBitmap;
  try {
    // Camera photos carry their rotation in EXIF; 'from-image' applies it, so the JPEG stands upright.
    bitmap = await tools.createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch (error) {
    // Not an image this browser decodes (or not an image at all): the server has the last word.
    console.info('Sending the file as it is: the browser could not decode it', error);
    return file;
  }
  try {
    const size = targetSize(bitmap.width, bitmap.height, maxSide);
    if (!size) return file;
    const blob = await tools.encodeJpeg(bitmap, size, JPEG_QUALITY);
    if (!blob || blob.size === 0 || blob.size >= file.size) return file;
    return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  } catch (error) {
    console.warn('Sending the file as it is: it could not be made smaller', error);
    return file;
  } finally {
    bitmap.close();
  }
}
