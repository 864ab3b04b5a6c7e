#!/usr/bin/env node
// `npm run bench` (after the bundle measure): the offline data path's figures, recorded in docs/benchmarks.md.
// Runs each benchmark of tests/bench in its own Node process (`node --import tsx`), prints their figures and
// writes them to tests/.artifacts/bench-offline.json. Timings are never asserted anywhere: they depend on the
// machine.
//   pull      10,000 proposals into Dexie through src/lib/sync vs a plain bulkPut (Node, fake-indexeddb)
//   replay    1,000 queued proposals (and 30 with three photos) against the local main-service
//   chromium  Submit offline until durable with three photos, and the pull again, in Debian's Chromium
//   replay-browser  1,000 queued proposals replayed in Debian's Chromium against one main-service: the outbox
//             replayer, batched push (POST /sync/push) and Workbox's queue, side by side (about 15 minutes)
//   reconnect 20 proposals queued offline in Chromium, Firefox ESR and WebKitGTK, the app left open offline for
//             5 minutes, then the time until the server holds all 20 (about 30 minutes; only when named;
//             serves E2E_STATIC_DIR, else dist)
// Usage: node scripts/bench-offline.mjs [pull] [replay] [chromium] [replay-browser] [reconnect]
//        (default: all but reconnect)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BENCHES = {
  pull: ['tests/bench/pull.ts'],
  replay: ['tests/bench/replay.ts'],
  chromium: ['tests/bench/chromium.ts'],
  'replay-browser': ['tests/bench/replay-browser.ts'],
  reconnect: ['tests/bench/reconnect.ts'],
};
/** Run only when named: they take many minutes. */
const NOT_BY_DEFAULT = new Set(['reconnect']);
/** The benchmarks that need Debian's Chromium. */
const IN_CHROMIUM = new Set(['chromium', 'replay-browser', 'reconnect']);

function runBench(name, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0) {
        reject(new Error(`bench ${name} exited with ${code}:\n${output}`));
        return;
      }
      try {
        resolve(JSON.parse(last));
      } catch (error) {
        reject(new Error(`bench ${name} printed no figures:\n${output}`, { cause: error }));
      }
    });
  });
}

const asked = process.argv.slice(2).filter((a) => a in BENCHES);
const names = asked.length > 0 ? asked : Object.keys(BENCHES).filter((name) => !NOT_BY_DEFAULT.has(name));
const results = {};
for (const name of names) {
  if (IN_CHROMIUM.has(name) && !existsSync(CHROMIUM)) {
    console.warn(`skipping ${name}: ${CHROMIUM} is missing (apt-get install -y chromium)`);
    continue;
  }
  console.log(`running ${name}...`);
  results[name] = await runBench(name, BENCHES[name]);
  console.log(JSON.stringify(results[name], null, 2));
}
const dir = join(ROOT, 'tests', '.artifacts');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'bench-offline.json'), `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
console.log(`written to tests/.artifacts/bench-offline.json`);
