import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// PWA plugin configuration (injectManifest from sw/) is added by the PWA work; see README.
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/main-service': 'http://127.0.0.1:8080' },
  },
  build: { outDir: 'dist', sourcemap: false },
});
