// Images behind the bearer token (spec section 7, "image source path"): an <img src> cannot send the
// Authorization header, so the image is fetched here and handed over as an object URL, for the UI kit's
// `loadImage` props. Whoever shows the URL revokes it when done. A failure is only logged (spec section 8)
// and rejects, so the caller keeps its placeholder.
import type { LoadImageFn } from '../ui/file-upload/types';
import { http } from './api';
import { TOKEN_EXPIRED_MESSAGE } from './http';
import { readStoredLocale } from './locale-store';
import { tokenStore, type TokenStore } from './token-store';

export interface ImageLoaderOptions {
  tokens: Pick<TokenStore, 'getAccess'>;
  getLocale: () => string;
  fetch: typeof fetch;
  createObjectUrl: (blob: Blob) => string;
  /** Brings a fresh access token into the token store (the HTTP client's shared refresh). */
  refreshSession: () => Promise<void>;
}

async function isTokenExpired(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  try {
    const body = (await response.clone().json()) as unknown;
    return typeof body === 'object' && body !== null && 'message' in body && body.message === TOKEN_EXPIRED_MESSAGE;
  } catch (error) {
    console.warn('A 403 for an image without a JSON body', error);
    return false;
  }
}

export function createImageLoader(options: ImageLoaderOptions): LoadImageFn {
  const get = (link: string) => {
    const token = options.tokens.getAccess();
    const headers: Record<string, string> = { Language: options.getLocale() };
    if (token) headers.Authorization = `Bearer ${token}`;
    return options.fetch(link, { headers });
  };

  return async (link) => {
    try {
      let response = await get(link);
      if (await isTokenExpired(response)) {
        await options.refreshSession();
        response = await get(link);
      }
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return options.createObjectUrl(await response.blob());
    } catch (error) {
      console.warn(`Could not load the image ${link}`, error);
      throw error;
    }
  };
}

export const loadAuthorizedImage: LoadImageFn = createImageLoader({
  tokens: tokenStore,
  getLocale: () => readStoredLocale(),
  fetch: (input, init) => globalThis.fetch(input, init),
  createObjectUrl: (blob) => URL.createObjectURL(blob),
  refreshSession: () => http.refreshSession(),
});
