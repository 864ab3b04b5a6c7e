#!/usr/bin/env node
// `npm start`: builds the web app when dist/ has none, then runs the main-service in one Node process.
// Signals reach the server exactly once (it closes the database on SIGTERM and SIGINT) and its exit code is
// ours. The child runs in its own process group: otherwise a Ctrl+C in a terminal would reach it twice (from
// the terminal and from us, and once more through npm), and a second signal cuts a clean shutdown short.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, PORT: process.env.PORT || '8080' };

/** Runs a command with inherited stdio, forwarding SIGINT/SIGTERM/SIGHUP once each; resolves with its exit code. */
function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit', detached: true });
    const forwarded = new Set();
    const forward = (signal) => {
      if (forwarded.has(signal) || child.exitCode !== null || child.signalCode !== null) return;
      forwarded.add(signal);
      child.kill(signal);
    };
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, forward);
    child.once('error', (error) => {
      for (const signal of signals) process.off(signal, forward);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      for (const signal of signals) process.off(signal, forward);
      // A child ended by a signal reports it the shell's way (128 + number).
      resolve(code ?? 128 + (signal ? osSignalNumber(signal) : 1));
    });
  });
}

function osSignalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal] ?? 1;
}

async function main() {
  if (!existsSync(new URL('../dist/index.html', import.meta.url))) {
    console.log('dist/index.html is missing: building the web app (vite build)...');
    const viteBin = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url));
    const buildCode = await run(process.execPath, [viteBin, 'build']);
    if (buildCode !== 0) {
      console.error(`vite build failed with exit code ${buildCode}`);
      return buildCode;
    }
  }
  return run(process.execPath, ['--import', 'tsx', 'server/index.ts']);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
