#!/usr/bin/env node
// Runs shell commands N at a time (default: one per core), prints each one's output whole when it ends, and exits 1 if
// any failed (after all have run, naming each failure).
//
// With `-- <command> [args...]`, that command runs in the foreground (its output live, its arguments passed as given)
// while the listed commands run beside it at the lowest CPU priority (`nice -n 19` where there is one): they use only
// what the foreground leaves idle, and their output is printed after it. `npx projen test` runs jest so, with eslint and
// the type check beside it: jest's suites that wait on deadlines and child processes leave a core idle for a while.
// Usage: node scripts/run-parallel.js [--jobs N] "<command>" ["<command>" ...] [-- <foreground command> [args...]]
const { spawn, spawnSync } = require('child_process');
const os = require('os');

let args = process.argv.slice(2);
let foreground;
const separator = args.indexOf('--');
if (separator >= 0) {
  foreground = args.slice(separator + 1);
  args = args.slice(0, separator);
  if (foreground.length === 0) {
    console.error('run-parallel: nothing after --');
    process.exit(2);
  }
}
let jobs = Math.max(1, os.cpus().length);
if (args[0] === '--jobs') {
  jobs = Number(args[1]);
  args.splice(0, 2);
  if (!Number.isInteger(jobs) || jobs < 1) {
    console.error(`run-parallel: --jobs must be a whole number >= 1, got '${jobs}'`);
    process.exit(2);
  }
}
if (args.length === 0 && !foreground) {
  console.error('run-parallel: no commands given');
  process.exit(2);
}

const failures = [];
const reports = [];
let next = 0;
const hasNice = process.platform !== 'win32' && spawnSync('nice', ['-n', '19', 'true']).status === 0;

function runOne(command, { background }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = background && hasNice
      ? spawn('nice', ['-n', '19', 'sh', '-c', command], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`;
      const report = `\n--- ${command}: ${status} in ${seconds} s\n${Buffer.concat(chunks).toString()}`;
      // Beside a foreground command, reports wait for it so they do not land in the middle of its output.
      if (background) reports.push(report); else process.stdout.write(report);
      if (code !== 0) failures.push(command);
      resolve();
    });
  });
}

function runForeground(argv) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('close', (code, signal) => {
      if (code !== 0) failures.push(`${argv.join(' ')} (${signal ?? `exit ${code}`})`);
      resolve();
    });
  });
}

async function worker(background) {
  while (next < args.length) await runOne(args[next++], { background });
}

const background = Boolean(foreground);
const running = Promise.all(Array.from({ length: Math.min(jobs, args.length) }, () => worker(background)));
Promise.all([running, foreground ? runForeground(foreground) : undefined]).then(() => {
  for (const report of reports) process.stdout.write(report);
  if (failures.length > 0) {
    console.error(`\nrun-parallel: ${failures.length} of ${args.length + (foreground ? 1 : 0)} failed:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
});
