#!/usr/bin/env node
// Compares a committed integ snapshot with a fresh synth, ignoring what changes whenever a bundled handler changes
// (asset hashes and the asset.* bodies) and the files projen does not commit. Used by the `integ:<name>:assert` tasks
// (CLI) and by the jest suite that synthesizes every integ app once (test/security/control-tower.test.ts).
const fs = require('fs');
const path = require('path');

const IGNORED = /^(asset\..*|cdk\.out|manifest\.json|tree\.json)$/;
const mask = (text) => text.replace(/[0-9a-f]{64}/g, '<asset-hash>').replace(/(current_account|\d{12})-([a-z0-9-]+)-[0-9a-f]{8}"/g, '$1-$2-<dest>"');
const files = (dir) => fs.readdirSync(dir).filter((f) => !IGNORED.test(f)).sort();

/** The differences between a committed snapshot directory and a fresh cloud assembly: [] when they match. */
function diffSnapshot(snapshot, fresh) {
  const problems = [];
  const [a, b] = [files(snapshot), files(fresh)];
  if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`files differ: ${a.join(', ')} vs ${b.join(', ')}`);
  for (const f of a.filter((x) => b.includes(x))) {
    const [x, y] = [snapshot, fresh].map((d) => mask(fs.readFileSync(path.join(d, f), 'utf8')).split('\n'));
    const i = x.findIndex((line, n) => line !== y[n]);
    if (i >= 0 || x.length !== y.length) {
      const n = i >= 0 ? i : Math.min(x.length, y.length);
      problems.push(`${f}:${n + 1}\n- ${x[n]}\n+ ${y[n]}`);
    }
  }
  return problems;
}

module.exports = { diffSnapshot };

if (require.main === module) {
  const problems = diffSnapshot(...process.argv.slice(2, 4));
  for (const p of problems) console.error(p);
  process.exit(problems.length ? 1 : 0);
}
