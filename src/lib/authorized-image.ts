// Images behind the bearer token (spec section 7, "image source path"): an <img src> cannot send the
// Authorization header, so the image is fetched here and handed over as an object URL, for the UI kit's
// `loadImage` props. Whoever shows the URL revokes it when done.
// Guarantees: the bytes come through the HTTP client's `getFile` (bearer token, `Language`, the one shared
// refresh and one resend, a deadline); a failure is only logged (spec section 8) and rejects, so the caller
// keeps its placeholder.
import type { LoadImageFn } from '../ui/file-upload/types';
import { http } from './api';
import type { HttpClient } from './http';

/** A photo may be a few megabytes on a poor cell signal: more time than a JSON call, still bounded. */
export const IMAGE_TIMEOUT_MS = 60_000;

export interface ImageLoaderOptions {
  http: Pick<HttpClient, 'getFile'>;
  createObjectUrl: (blob: Blob) => string;
  timeoutMs?: number;
}

export function createImageLoader(options: ImageLoaderOptions): LoadImageFn {
  return async (link) => {
    try {
      const { blob } = await options.http.getFile(link, undefined, { timeoutMs: options.timeoutMs ?? IMAGE_TIMEOUT_MS });
      return options.createObjectUrl(blob);
    } catch (error) {
      console.warn(`Could not load the image ${link}`, error);
      throw error;
    }
  };
}

export const loadAuthorizedImage: LoadImageFn = createImageLoader({
  http,
  createObjectUrl: (blob) => URL.createObjectURL(blob),
});
