#!/usr/bin/env bash
# Synthesizes one of each construct (scripts/cdk-version/app.js) against a given aws-cdk-lib version.
#   scripts/cdk-version/synth.sh <folder>          # <folder>/node_modules already holds aws-cdk-lib (any version)
#   scripts/cdk-version/synth.sh <folder> 2.257.0  # installs aws-cdk-lib@2.257.0 (+ constructs, cdk-nag) there first
# Packs the library as published (run `npx projen compile && npx projen bundle` first), installs the tarball into
# <folder> (outside the repo, so the repo's own aws-cdk-lib is never resolved) and runs the app there.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:?usage: synth.sh <folder outside the repo> [aws-cdk-lib version]}"
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"
case "$dir/" in "$repo"/*) echo "synth.sh: $dir is inside the repo; give a folder outside it" >&2; exit 2;; esac
[ -f "$dir/package.json" ] || echo '{"name":"cdk-version-synth","private":true}' > "$dir/package.json"
nag="$(node -p "require('$repo/package.json').devDependencies['cdk-nag']")"
if [ -n "${2:-}" ]; then
  (cd "$dir" && npm install --no-audit --no-fund --silent "aws-cdk-lib@$2" constructs@^10.5.1 "cdk-nag@$nag")
fi
tgz="$(cd "$repo" && npm pack --silent --pack-destination "$dir" | tail -1)"
(cd "$dir" && npm install --no-audit --no-fund --silent --no-save "./$tgz")
cp "$repo/scripts/cdk-version/app.js" "$dir/app.js"
cd "$dir" && node app.js "$dir/cdk.out"
