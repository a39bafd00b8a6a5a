#!/usr/bin/env node
// The `cdk-sagemaker-mcp` command: the compiled CLI (lib/cli.js) with this package's dependencies.
require('../lib/cli.js').main().then(
  (code) => { if (code !== undefined) process.exitCode = code; },
  (err) => { process.stderr.write(`${(err && err.stack) || err}\n`); process.exit(1); },
);
