#!/usr/bin/env node
// Runs shell commands N at a time (default: one per core), prints each one's output whole when it ends, and exits 1 if
// any failed (after all have run, naming each failure). `npx projen test` uses it for the checks after jest that each
// use one core (eslint, the type check, the integ snapshot asserts), so they share the machine's cores.
// Usage: node scripts/run-parallel.js [--jobs N] "<command>" ["<command>" ...]
const { spawn } = require('child_process');
const os = require('os');

const args = process.argv.slice(2);
let jobs = Math.max(1, os.cpus().length);
if (args[0] === '--jobs') {
  jobs = Number(args[1]);
  args.splice(0, 2);
  if (!Number.isInteger(jobs) || jobs < 1) {
    console.error(`run-parallel: --jobs must be a whole number >= 1, got '${jobs}'`);
    process.exit(2);
  }
}
if (args.length === 0) {
  console.error('run-parallel: no commands given');
  process.exit(2);
}

const failures = [];
let next = 0;

function runOne(command) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n--- ${command}: ${status} in ${seconds} s\n${Buffer.concat(chunks).toString()}`);
      if (code !== 0) failures.push(command);
      resolve();
    });
  });
}

async function worker() {
  while (next < args.length) await runOne(args[next++]);
}

Promise.all(Array.from({ length: Math.min(jobs, args.length) }, worker)).then(() => {
  if (failures.length > 0) {
    console.error(`\nrun-parallel: ${failures.length} of ${args.length} failed:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
});
