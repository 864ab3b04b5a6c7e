// Vite plugin: index.html's entry script is fetched at low priority.
//
// The first frame needs the stylesheet and the boot script (public/boot-shell.js), which draw the static shell;
// the app's entry is a module script, which never holds that frame back, and on a phone's connection its 90 KB
// would otherwise share the bandwidth with what the frame waits for (Chromium starts low-priority requests once
// the render-blocking ones have arrived). Lighthouse's simulation, which cannot tell when a module script is
// evaluated, also counts a script fetched at high priority as one the first paint waited for. Vite writes the
// entry's tag itself (and drops the attributes of the one in index.html), so the attribute is added to its tag.
import type { Plugin } from 'vite';

const ENTRY_TAG = /<script type="module" crossorigin src="[^"]*"><\/script>/g;

/** index.html with `fetchpriority="low"` on the entry's script tag; throws when there is not exactly one. */
export function withLowPriorityEntry(html: string): string {
  const tags = html.match(ENTRY_TAG) ?? [];
  if (tags.length !== 1) throw new Error(`entry-priority: expected one entry script in index.html, found ${tags.length}`);
  return html.replace(ENTRY_TAG, (tag) => tag.replace('<script type="module"', '<script type="module" fetchpriority="low"'));
}

export function entryPriority(): Plugin {
  return {
    name: 'entry-priority',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: withLowPriorityEntry },
  };
}
