// api.test.js - the npm package's API (tools/npm/index.js) against the native program,
// run by tests/npm/run.sh with `node --test` in the scratch project that installed the
// tarball (so `require('mcpdesc')` is the packed package). MCPDESC_TOP: the repository;
// MCPDESC_NATIVE: the native program. Every comparison is with the native JSON report
// of the same run: the findings finding by finding, field by field (and in the report's
// member order), the rule sets as `rules list --format json` gives them.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const mcpdesc = require('mcpdesc');

const top = process.env.MCPDESC_TOP;
const native = process.env.MCPDESC_NATIVE;
assert.ok(top && native, 'MCPDESC_TOP and MCPDESC_NATIVE must be set (tests/npm/run.sh)');
const rules = path.join(top, 'rules-yaml');
// the tree's releases first, for both programs, as tests/wasm/run.sh gives them (the
// native build finds them by itself, the package would use its embedded ones)
const releases = path.join(rules, 'releases');
const env = { ...process.env, MCPDESC_NO_CONFIG: '1', MCPDESC_RULES_PATH: releases };

function nativeRun(args, input) {
  const r = childProcess.spawnSync(native, args, { cwd: top, env, input: input || '', maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

function nativeReport(args, input) {
  const r = nativeRun(['validate', '--format', 'json', ...args], input);
  assert.ok(r.status === 0 || r.status === 1, `native validate ${args.join(' ')}: status ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function nativeFindings(args, input) {
  const out = [];
  for (const f of nativeReport(args, input).files) {
    for (const d of f.diagnostics || []) out.push({ ...d, file: f.file });
  }
  return out;
}

// field by field, and the fields in the same order as the JSON report
function sameFindings(got, want, what) {
  assert.equal(got.length, want.length, `${what}: number of findings`);
  for (let i = 0; i < want.length; i++) {
    assert.deepStrictEqual(got[i], want[i], `${what}: finding ${i}`);
    assert.deepStrictEqual(Object.keys(got[i]), Object.keys(want[i]), `${what}: finding ${i}'s fields`);
  }
}

function folders() {
  return fs
    .readdirSync(path.join(top, 'conformance'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'diff')
    .map((e) => path.join('conformance', e.name));
}

function rulesFor(dir) {
  return dir === path.join('conformance', 'security') ? path.join(rules, 'security') : rules;
}

// at most N promises at a time
async function eachLimited(items, n, fn) {
  let next = 0;
  const workers = Array.from({ length: n }, async () => {
    while (next < items.length) {
      const item = items[next++];
      await fn(item);
    }
  });
  await Promise.all(workers);
}

test('validateFiles: each conformance folder, as the native report', async () => {
  for (const dir of folders()) {
    const want = nativeFindings(['--rules', rulesFor(dir), '--preset', 'all', dir]);
    const got = await mcpdesc.validateFiles([dir], { rules: rulesFor(dir), preset: 'all', cwd: top, env });
    assert.ok(want.length > 0 || dir.includes('valid') || dir.includes('benign'), `${dir}: the native report has findings`);
    sameFindings(got, want, dir);
  }
});

test('validateFilesReport: the whole report, as the native one', async () => {
  const dir = path.join('conformance', 'expected-invalid');
  const got = await mcpdesc.validateFilesReport(dir, { rules, preset: 'all', cwd: top, env });
  assert.deepStrictEqual(got, nativeReport(['--rules', rules, '--preset', 'all', dir]));
});

test('validate(text): every conformance fixture file, as the native program judges the file', async () => {
  const files = [];
  for (const dir of folders()) {
    for (const name of fs.readdirSync(path.join(top, dir)).sort()) {
      if (/\.(json|ya?ml)$/.test(name)) files.push(path.join(dir, name));
    }
  }
  assert.ok(files.length > 50, `conformance fixtures found: ${files.length}`);
  let judged = 0;
  await eachLimited(files, 2, async (file) => {
    const r = nativeRun(['validate', '--format', 'json', '--rules', rulesFor(path.dirname(file)), '--preset', 'all', file]);
    if (r.status === 2) return; // not a description (fixtures of `together`, inputs with errors): below
    const want = nativeFindings(['--rules', rulesFor(path.dirname(file)), '--preset', 'all', file]);
    const text = fs.readFileSync(path.join(top, file), 'utf8');
    const got = await mcpdesc.validate(text, { rules: rulesFor(path.dirname(file)), preset: 'all', filepath: file, cwd: top, env });
    sameFindings(got, want, file);
    judged++;
  });
  assert.ok(judged > 50, `fixtures judged: ${judged}`);
});

test('validate(object): a description object, as its JSON text', async () => {
  const file = path.join(top, 'examples', 'weather.json');
  const description = JSON.parse(fs.readFileSync(file, 'utf8'));
  const text = JSON.stringify(description, null, 2) + '\n';
  const want = nativeFindings(['--rules', rules, '--preset', 'all', '-'], text);
  assert.ok(want.length > 0, 'weather.json has findings under --preset all');
  sameFindings(await mcpdesc.validate(description, { rules, preset: 'all', env }), want, 'object');
  assert.equal(want[0].file, '<stdin>');
});

test('validate: rule, skip, protocolVersion and preset as the CLI options', async () => {
  const file = path.join('conformance', 'expected-warning');
  const cases = [
    [{ preset: 'strict' }, ['--preset', 'strict']],
    [{ preset: 'all', skip: 'mcp.server.*' }, ['--preset', 'all', '--skip', 'mcp.server.*']],
    [{ rule: ['mcp.tool.*', 'mcp.server.*'] }, ['--rule', 'mcp.tool.*', '--rule', 'mcp.server.*']],
    [{ preset: 'all', protocolVersion: '2025-11-25' }, ['--preset', 'all', '--protocol-version', '2025-11-25'], path.join(file, 'component-output-schema.json')],
  ];
  for (const [options, args, only] of cases) {
    const want = nativeFindings(['--rules', rules, ...args, only || file]);
    assert.ok(want.length > 0, `${args.join(' ')}: the native report has findings`);
    const got = await mcpdesc.validateFiles(only || file, { rules, cwd: top, env, ...options });
    sameFindings(got, want, JSON.stringify(options));
  }
});

test('validate: config and baseline files, as the CLI options', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpdesc-npm-'));
  try {
    const dir = path.join('conformance', 'expected-warning');
    const config = path.join(tmp, 'config.yaml');
    fs.writeFileSync(config, 'levels:\n  mcp.server.capabilities.logging-deprecated: info\n');
    const withConfig = await mcpdesc.validateFiles(dir, { rules, config, cwd: top, env });
    sameFindings(withConfig, nativeFindings(['--rules', rules, '--config', config, dir]), 'config');
    assert.ok(withConfig.some((f) => f.rule === 'mcp.server.capabilities.logging-deprecated' && f.level === 'info'), 'the config changed a level');

    const baseline = path.join(tmp, 'baseline.json');
    const one = path.join(dir, 'capabilities-2026-07-28.json');
    const w = nativeRun(['baseline', 'write', baseline, '--rules', rules, '--preset', 'all', one]);
    assert.equal(w.status, 0, w.stderr);
    const got = await mcpdesc.validateFiles(dir, { rules, preset: 'all', baseline, cwd: top, env });
    const want = nativeFindings(['--rules', rules, '--preset', 'all', '--baseline', baseline, dir]);
    sameFindings(got, want, 'baseline');
    // the JSON report keeps a recorded finding, marked (docs/format.md): so does the API
    const recorded = got.filter((f) => f.file === one);
    assert.ok(recorded.length > 0 && recorded.every((f) => f.baselineState === 'unchanged'), 'the baselined file\'s findings are marked unchanged');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('loadRules: a folder, and a release NAME@TAG with and without its pinned digest', async () => {
  const want = JSON.parse(nativeRun(['rules', 'list', '--format', 'json', '--rules', rules]).stdout);
  const folder = await mcpdesc.loadRules(rules, { env });
  assert.deepStrictEqual({ ...folder }, want);

  const spec = `${want.name}@${want.tag}`;
  const release = await mcpdesc.loadRules(spec, { cwd: top, env });
  assert.equal(release.name, want.name);
  assert.equal(release.tag, want.tag);
  assert.equal(release.digest, want.digest);
  const wantTag = nativeFindings(['--rules-tag', spec, '--preset', 'all', path.join('conformance', 'expected-invalid')]);
  const gotTag = await mcpdesc.validateFiles(path.join('conformance', 'expected-invalid'), { rules: release, preset: 'all', cwd: top, env });
  sameFindings(gotTag, wantTag, spec);

  // without the tree's releases: the one the package carries, the same digest
  const embeddedEnv = { ...env };
  delete embeddedEnv.MCPDESC_RULES_PATH;
  const embedded = await mcpdesc.loadRules(spec, { cwd: os.tmpdir(), env: embeddedEnv });
  assert.ok(embedded.dir.startsWith('/mcpdesc-embedded/'), `embedded release dir: ${embedded.dir}`);
  assert.equal(embedded.digest, want.digest);

  const pinned = await mcpdesc.loadRules(`${spec}@${want.digest}`, { cwd: top, env });
  assert.equal(pinned.digest, want.digest);
  const wrong = want.digest.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
  await assert.rejects(mcpdesc.loadRules(`${spec}@${wrong}`, { cwd: top, env }), (e) => {
    assert.ok(e instanceof mcpdesc.McpdescError);
    assert.equal(e.status, 2);
    assert.equal(e.stderr, nativeRun(['rules', 'list', '--format', 'json', '--rules-tag', `${spec}@${wrong}`]).stderr);
    return true;
  });
});

test('errors: an input that is not a description, and bad usage, reject with the CLI status 2', async () => {
  await assert.rejects(mcpdesc.validate('{"mcpDescription": ', { rules, env }), (e) => {
    assert.ok(e instanceof mcpdesc.McpdescError);
    assert.equal(e.status, 2);
    assert.equal(e.report.files[0].file, '<stdin>');
    const n = nativeRun(['validate', '--format', 'json', '--rules', rules, '-'], '{"mcpDescription": ');
    assert.equal(n.status, 2);
    assert.deepStrictEqual(e.report, JSON.parse(n.stdout));
    assert.equal(e.stderr, n.stderr);
    return true;
  });
  await assert.rejects(mcpdesc.validate('{}', { rules, preset: 'none', env }), (e) => e.status === 2 && /preset/.test(e.stderr));
  await assert.rejects(mcpdesc.validate(42, { env }), TypeError);
  await assert.rejects(mcpdesc.loadRules('no-such-set@v9', { env }), (e) => e.status === 2);
});

test('ESM: import gives the same names', async () => {
  const esm = await import('mcpdesc');
  for (const name of ['validate', 'validateReport', 'validateFiles', 'validateFilesReport', 'loadRules', 'McpdescError']) {
    assert.equal(esm[name], mcpdesc[name], name);
  }
});
