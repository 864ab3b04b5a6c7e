// The UI kit showcase: a Vite dev server rooted here that renders every sections/*-section.tsx inside the
// app's intl provider. harness.ts starts it programmatically (with the proxy aimed at its own
// main-service); by hand: `npx vite --config tests/e2e/kit/vite.config.ts` beside `npm start`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const kitRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export default defineConfig({
  root: kitRoot,
  // Its own dependency cache, so it never fights the app's dev server over node_modules/.vite.
  cacheDir: `${repoRoot}node_modules/.vite-kit`,
  plugins: [react()],
  server: {
    fs: { allow: [repoRoot] },
    proxy: { '/main-service': 'http://127.0.0.1:8080' },
  },
  // Crawl the sections up front: a dependency discovered later would make Vite reload the page mid-test.
  optimizeDeps: { entries: ['index.html', 'main.tsx', 'sections/*-section.tsx'] },
});
