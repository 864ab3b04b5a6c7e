// The review list benchmark's page (review-list.html): a Vite dev server rooted here, with React, that renders
// the app's own proposals page from source over a mirror of 50,000 proposals. tests/bench/review-list.ts
// builds it for production and serves the build.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const benchRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export default defineConfig({
  root: benchRoot,
  plugins: [react()],
  cacheDir: `${repoRoot}node_modules/.vite-bench-review-list`,
  server: { fs: { allow: [repoRoot] } },
  optimizeDeps: { entries: ['review-list.html', 'review-list.tsx'] },
});
