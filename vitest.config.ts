import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Four projects: unit (client and domain, jsdom), server (main-service on PGlite, or PostgreSQL
// when DATABASE_URL is set), integration (the client data layer on fake-indexeddb against the real
// main-service in-process, on the same databases as server) and e2e (the built app in Debian's Chromium).
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // A guard against a hang, not a speed check: on a loaded machine (CI, or a build beside the tests) a
          // form test that types a few fields takes several seconds of CPU, past the default 5 s.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
