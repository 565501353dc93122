// bench-api.js [N] - the npm API's cost per call, for docs/bench.md (not a test: nothing
// here is asserted, and make test-npm does not run it). Run in a project that installed
// the package (build/npm/scratch after make test-npm; the package is found from the
// working directory), MCPDESC_TOP naming the repository:
//   cd build/npm/scratch && MCPDESC_TOP=$PWD/../../.. node ../../../tests/npm/bench-api.js 20
// Prints the first call (the module's instantiation, or the first child process, with it)
// and then the median and mean of N more calls of validate(examples/weather.json's text)
// with the rule set carried inside the package and of validateFiles(conformance/
// expected-invalid) with the tree's rules-yaml, each as wall time in milliseconds.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const top = path.resolve(process.env.MCPDESC_TOP || '.');
const n = Number(process.argv[2] || 20);
const mcpdesc = require(require.resolve('mcpdesc', { paths: [process.cwd()] }));
const env = { ...process.env, MCPDESC_NO_CONFIG: '1' };
const text = fs.readFileSync(path.join(top, 'examples', 'weather.json'), 'utf8');

async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function summary(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  return `median ${median.toFixed(1)} ms, mean ${mean.toFixed(1)} ms over ${ms.length}`;
}

async function main() {
  const one = () => mcpdesc.validate(text, { filepath: 'weather.json', preset: 'all', env, cwd: top });
  const first = await timed(one);
  const calls = [];
  for (let i = 0; i < n; i++) calls.push(await timed(one));
  console.log(`validate(weather.json text): first call ${first.toFixed(1)} ms; then ${summary(calls)}`);
  const dir = path.join('conformance', 'expected-invalid');
  const rules = path.join(top, 'rules-yaml');
  const files = [];
  for (let i = 0; i < n; i++) {
    files.push(await timed(() => mcpdesc.validateFiles(dir, { rules, preset: 'all', env, cwd: top })));
  }
  console.log(`validateFiles(${dir}, rules-yaml): ${summary(files)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
