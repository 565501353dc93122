#!/bin/sh
# ecma-regex-node.sh [CORPUS] - the ECMA-262 pattern corpus (tests/data/ecma-regex/
# corpus.txt, docs/schema.md "Regular expressions") against a JavaScript engine: every
# pattern the corpus calls valid or unrun must compile with `new RegExp(p, 'u')`, every
# one it calls invalid must throw. So the corpus's expectations are ECMA-262's, not only
# mcpdesc's (make test-unit checks mcpdesc against the corpus). Without node on PATH the
# check is a skip (a failure under MCPDESC_REQUIRE=all).
set -u
corpus=${1:-tests/data/ecma-regex/corpus.txt}
. tests/skip.sh
if ! command -v node > /dev/null 2>&1; then
    test_skip test-ecma-regex-node "the corpus against node's RegExp" "node is not on PATH" || exit 1
    exit 0
fi
node - "$corpus" << 'JS'
const fs = require('fs');
const file = process.argv[2];
let n = 0, bad = 0;
for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
  if (line.startsWith('#') || !line.includes('\t')) continue;
  const tab = line.indexOf('\t'), want = line.slice(0, tab), pattern = line.slice(tab + 1);
  let error = null;
  try { new RegExp(pattern, 'u'); } catch (e) { error = e.message; }
  n++;
  if ((error === null) !== (want !== 'invalid')) {
    bad++;
    console.log(`FAIL /${pattern}/u: the corpus says ${want}, node ${process.version} says ` +
                (error === null ? 'it compiles' : error));
  }
}
console.log(`ecma-regex-node: ${n - bad} of ${n} corpus patterns agree with node ${process.version}`);
process.exit(bad || n < 200 ? 1 : 0);
JS
