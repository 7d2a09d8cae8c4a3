#!/usr/bin/env bash
# Removes `export` from every name no other file imports (the dead-export check of `npm run lint`,
# configured in knip.jsonc), formats the files it changed, then shows what is left to do by hand:
# a name that was used nowhere, not even in its own file, is now an unused declaration (eslint's
# no-unused-vars): delete it. Run from anywhere: `bash scripts/dead-exports.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."

# knip.jsonc includes only exports and types, so --fix touches nothing else. A pass can uncover
# more (a re-export removed from an index leaves the original export unused): up to three passes.
for _ in 1 2 3; do
  if npx knip --fix --format --no-progress >/dev/null 2>&1; then break; fi
done

changed=$(git diff --name-only -- 'src/*' 'bin/*' 'scripts/*' 'test/*' 'benchmarks/*')
echo "changed: $(echo "$changed" | grep -c . || true) files"
status=0
npx knip --no-progress || status=1
# shellcheck disable=SC2086 # one argument per file name (none has a space)
[ -z "$changed" ] || npx eslint $changed || status=1
npx tsc --noEmit && npx tsc --noEmit -p src/viewer || status=1
exit $status
