// The session requests index.html's boot script (public/boot-shell.js) makes on a signed-in screen before any of
// the app's JavaScript has arrived: `GET /user`, enums and units, with the stored token and language, kept in
// `window.__bootRequests` by URL. The app's HTTP client (src/lib/api.ts) takes such an answer instead of asking
// again when its own request is the same one: a GET of that URL with the same bearer token and language. Each
// answer is taken once; whatever the client then does with it (parse it, refresh the token on a 401 and ask
// again) is what it does with any answer. On a phone's connection this saves the round trip that would otherwise
// start only once the entry script has downloaded and run.

interface BootRequest {
  authorization: string;
  language: string;
  response: Promise<Response>;
}

export type BootRequests = Record<string, BootRequest | undefined>;

declare global {
  interface Window {
    __bootRequests?: BootRequests;
  }
}

function headerOf(headers: HeadersInit | undefined, name: string): string | null {
  if (!headers) return null;
  return new Headers(headers).get(name);
}

/** The boot script's answer to this request, if it made the same one; taken once. */
export function takeBootResponse(input: RequestInfo | URL, init: RequestInit | undefined, requests: BootRequests | undefined = globalThis.window?.__bootRequests): Promise<Response> | null {
  if (!requests || typeof input !== 'string' || (init?.method ?? 'GET') !== 'GET' || init?.body != null) return null;
  const request = requests[input];
  if (!request) return null;
  if (headerOf(init?.headers, 'Authorization') !== request.authorization || headerOf(init?.headers, 'Language') !== request.language) return null;
  requests[input] = undefined;
  return request.response;
}
