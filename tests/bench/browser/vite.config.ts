// The browser benchmarks' page: a Vite dev server rooted here that loads the app's own modules from source
// (the proposals store, the pull, the UI kit's downscaling). tests/bench/chromium.ts starts it.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const benchRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export default defineConfig({
  root: benchRoot,
  cacheDir: `${repoRoot}node_modules/.vite-bench`,
  server: { fs: { allow: [repoRoot] } },
  optimizeDeps: { entries: ['index.html', 'main.ts'] },
});
