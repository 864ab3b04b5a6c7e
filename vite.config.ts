import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { catalogueAreas } from './scripts/vite-catalogue-areas';
import { entryPriority } from './scripts/vite-entry-priority';
import { routePreloads } from './scripts/vite-route-preloads';
import { signedInShell } from './scripts/vite-signed-in-shell';
import { stripDefaultMessages } from './scripts/vite-strip-default-messages';

// The signed-in shell's modules go into one chunk (scripts/vite-signed-in-shell.ts says why and which).
const shell = signedInShell();

// The service worker is our own (sw/sw.ts, injectManifest): it precaches every file the patterns below
// match, so a cold start offline has the shell, every lazily loaded page and both locale catalogues.
// It is registered by src/app/pwa-update.tsx, which also asks the user before a new version activates.
// catalogueAreas() cuts locales/<lang>.json into one chunk per language and message area
// (src/lib/catalogue-areas.ts); those chunks are JavaScript too, so the precache below holds every one
// of them and a cold start offline has the messages of any area.
export default defineConfig({
  plugins: [
    catalogueAreas(),
    shell.plugin,
    routePreloads(),
    entryPriority(),
    react(),
    stripDefaultMessages(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      // The glob patterns below already take every icon; the plugin's own additions would be duplicates.
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: 'Dashboard',
        short_name: 'Dashboard',
        description:
          'Improvement management: proposals, goals, projects and registries, online or offline. ' +
          'Управление улучшениями: предложения, цели, проекты и реестры, в сети и без сети.',
        lang: 'ru',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#111827',
        background_color: '#111827',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // The worker is a classic script: built as one IIFE (Vite's library mode), its few dynamic imports (the
        // outbox kinds' success handlers, src/app/outbox-kinds.ts) are inlined without the page's preload
        // helper, whose `import.meta` a classic worker cannot evaluate.
        rollupFormat: 'iife',
        // Every JS and CSS chunk (pages are lazy, message areas load on demand), the HTML shell and the icons.
        // manifest.webmanifest is not matched here because the plugin always adds it (with its revision).
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        globIgnores: ['sw.js', '.vite/**'],
        // A failed precache of a large chunk would break the offline cold start; keep the limit generous.
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      devOptions: { enabled: false, type: 'module' },
    }),
  ],
  server: {
    proxy: { '/main-service': 'http://127.0.0.1:8080' },
  },
  // The manifest lets scripts/measure-bundle.mjs list the sign-in route's chunks without a browser.
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'signed-in', test: shell.test, includeDependenciesRecursively: false },
            { name: 'common', test: shell.testCommon, includeDependenciesRecursively: false },
            { name: 'session', test: shell.testSession, includeDependenciesRecursively: false },
            { name: 'boot', test: shell.testBoot, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
});
