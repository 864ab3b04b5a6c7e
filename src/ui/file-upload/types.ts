// The contract between the file upload control and whoever does the uploading (spec sections 3, 7, 8).
// The control has no data access: features pass `upload` and `loadImage` (src/lib/upload.ts and
// src/lib/authorized-image.ts give the app's versions).

/** The long side, in px, that photos are made smaller to before they are sent (downscale.ts). */
export const MAX_IMAGE_SIDE = 1600;

/** What an upload call answered: its `status` field (the HTTP status when the body has none), message, data. */
export interface UploadAnswer {
  status: number;
  message?: string | null;
  data?: { imageId: string; imageLink: string; name?: string } | null;
}

/**
 * Sends one file; calls `onProgress` with a fraction 0..1 as bytes leave. Resolves with the answer, or
 * null when nothing answered (network down, aborted).
 */
export type UploadFn = (file: File, onProgress: (fraction: number) => void, signal?: AbortSignal) => Promise<UploadAnswer | null>;

/** Turns an image link into something an <img> can show (an object URL fetched with the bearer token). */
export type LoadImageFn = (imageLink: string) => Promise<string>;

export type UploadStatus = 'pending' | 'uploading' | 'finished' | 'error';

/** One file of the field (spec section 3: id, file, status, name, imageId, imageLink). */
export interface UploadItem {
  /** Local id of the item (not the server's). */
  id: string;
  /** The file picked on this device; null for an image the field was given already uploaded. */
  file: File | null;
  status: UploadStatus;
  name: string;
  imageId: string | null;
  imageLink: string | null;
  /** 0..1 while uploading. */
  progress: number;
  /** What went wrong, for status 'error'. */
  error: string | null;
}

/** An image uploaded earlier (editing an entity that has photos): shown as a finished item. */
export interface UploadedImage {
  imageId: string;
  imageLink: string;
  name: string;
}
