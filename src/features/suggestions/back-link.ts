// Where a proposal page's back link leads: the list the user came from, carried in wouter's history state
// (`{ backTo }`). History state is untrusted (another page of the origin, an old entry), so only a path inside
// this app is accepted: it starts with one '/', and never '//' or '/\' (which browsers read as another host),
// and holds no control characters; anything else gives the fallback.

const MAX_BACK_LINK = 2000;

/** The state a list puts on its links, so the page it opens can return to the list as it was. */
export function backLinkState(backTo: string): { backTo: string } {
  return { backTo };
}

export function backLinkOf(state: unknown, fallback: string): string {
  if (typeof state !== 'object' || state === null || !('backTo' in state)) return fallback;
  const backTo: unknown = state.backTo;
  if (typeof backTo !== 'string' || backTo.length > MAX_BACK_LINK) return fallback;
  if (!backTo.startsWith('/') || backTo.startsWith('//') || backTo.startsWith('/\\')) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(backTo)) return fallback;
  return backTo;
}
