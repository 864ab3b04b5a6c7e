#!/usr/bin/env node
// `npm run bench` (after the bundle measure and the offline benchmarks): the employees list with 10,000 people
// in Debian's Chromium against the real main-service (tests/bench/employees-list.ts): time to first rows
// (cold, warm, in the app) and the scrolling frame time. Builds the app first when dist/ has none. Prints the
// figures and writes them to tests/.artifacts/bench-employees-list.json; recorded by hand in docs/benchmarks.md,
// section "Employees list". Timings are never asserted: they depend on the machine.
// Usage: node scripts/bench-employees-list.mjs [--people=10000] [--runs=3] [--step=1000]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`))));
  });
}

if (!existsSync(CHROMIUM)) {
  console.warn(`skipping the employees list benchmark: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  process.exit(0);
}
if (!existsSync(join(ROOT, 'dist', 'index.html'))) {
  console.log('building the app first...');
  await run('npm', ['run', 'build']);
}
console.log('running the employees list benchmark (10,000 people; a few minutes)...');
const output = await run(process.execPath, ['--import', 'tsx', 'tests/bench/employees-list.ts', ...process.argv.slice(2)]);
const last = output.trim().split('\n').at(-1) ?? '';
let figures;
try {
  figures = JSON.parse(last);
} catch (error) {
  throw new Error(`the benchmark printed no figures:\n${output}`, { cause: error });
}
console.log(JSON.stringify(figures, null, 2));
const dir = join(ROOT, 'tests', '.artifacts');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'bench-employees-list.json'), `${JSON.stringify({ at: new Date().toISOString(), figures }, null, 2)}\n`);
console.log('written to tests/.artifacts/bench-employees-list.json');
