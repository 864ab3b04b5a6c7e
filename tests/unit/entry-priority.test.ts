// scripts/vite-entry-priority.ts: the entry's script tag in the built index.html asks for low priority.
import { describe, expect, it } from 'vitest';
import { withLowPriorityEntry } from '../../scripts/vite-entry-priority';

describe('withLowPriorityEntry', () => {
  it("adds fetchpriority=\"low\" to the entry's tag and leaves the rest of the page as it was", () => {
    const html = '<head><script src="/boot-shell.js"></script>\n<script type="module" crossorigin src="/assets/index-1.js"></script>\n</head>';
    expect(withLowPriorityEntry(html)).toBe(
      '<head><script src="/boot-shell.js"></script>\n<script type="module" fetchpriority="low" crossorigin src="/assets/index-1.js"></script>\n</head>',
    );
  });

  it('fails the build when Vite wrote no entry tag, or more than one, in the shape it looks for', () => {
    expect(() => withLowPriorityEntry('<script type="module" src="/assets/index-1.js"></script>')).toThrow(/found 0/);
    const two = '<script type="module" crossorigin src="/a.js"></script><script type="module" crossorigin src="/b.js"></script>';
    expect(() => withLowPriorityEntry(two)).toThrow(/found 2/);
  });
});
