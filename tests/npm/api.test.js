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

test('validate(text): preset, config, baseline and a pinned digest, as the CLI judges the same text on standard input', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpdesc-npm-'));
  try {
    const file = path.join('conformance', 'expected-warning', 'capabilities-2026-07-28.json');
    const text = fs.readFileSync(path.join(top, file), 'utf8');
    const stdin = ['--stdin-filepath', file, '-'];
    const set = JSON.parse(nativeRun(['rules', 'list', '--format', 'json', '--rules', rules]).stdout);
    const pin = `${set.name}@${set.tag}@${set.digest}`;
    const config = path.join(tmp, 'config.yaml');
    fs.writeFileSync(config, 'levels:\n  mcp.server.capabilities.logging-deprecated: info\n');
    const baseline = path.join(tmp, 'baseline.json');
    const w = nativeRun(['baseline', 'write', baseline, '--rules', rules, '--preset', 'all', ...stdin], text);
    assert.equal(w.status, 0, w.stderr);
    const cases = [
      [{ rules, preset: 'strict' }, ['--rules', rules, '--preset', 'strict']],
      [{ rules, preset: 'all' }, ['--rules', rules, '--preset', 'all']],
      [{ rules, config }, ['--rules', rules, '--config', config]],
      [{ rules, preset: 'all', baseline }, ['--rules', rules, '--preset', 'all', '--baseline', baseline]],
      [{ rulesTag: pin, preset: 'all' }, ['--rules-tag', pin, '--preset', 'all']],
    ];
    for (const [options, args] of cases) {
      const want = nativeFindings([...args, ...stdin], text);
      assert.ok(want.length > 0, `${args.join(' ')}: the native report has findings`);
      const got = await mcpdesc.validate(text, { ...options, filepath: file, cwd: top, env });
      sameFindings(got, want, args.join(' '));
    }
    const baselined = await mcpdesc.validate(text, { rules, preset: 'all', baseline, filepath: file, cwd: top, env });
    assert.ok(baselined.every((f) => f.baselineState === 'unchanged'), 'every finding the baseline records is marked unchanged');
    assert.ok((await mcpdesc.validate(text, { rules, config, filepath: file, cwd: top, env })).some((f) => f.level === 'info'), 'the config changed a level');

    const wrong = pin.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    await assert.rejects(mcpdesc.validate(text, { rulesTag: wrong, filepath: file, cwd: top, env }), (e) => {
      assert.equal(e.status, 2);
      assert.equal(e.stderr, nativeRun(['validate', '--format', 'json', '--rules-tag', wrong, ...stdin], text).stderr);
      return true;
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// The module is instantiated once and called many times: nothing of one call may reach
// the next (src/cli/wasm_api.c, tools/npm/api-pre.js).
test('one instance, many calls: each has its own working directory, environment and standard input', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpdesc-npm-'));
  try {
    const file = path.join(top, 'conformance', 'expected-warning', 'capabilities-2026-07-28.json');
    const text = fs.readFileSync(file, 'utf8');
    // the config found from the working directory: one folder has one, the other none
    const withConfig = path.join(tmp, 'with-config');
    const without = path.join(tmp, 'without');
    fs.mkdirSync(withConfig);
    fs.mkdirSync(without);
    fs.writeFileSync(path.join(withConfig, '.mcpdesc.yaml'), 'levels:\n  mcp.server.capabilities.logging-deprecated: off\n');
    const searching = { ...env };
    delete searching.MCPDESC_NO_CONFIG;
    const inDir = (cwd) => {
      const r = childProcess.spawnSync(native, ['validate', '--format', 'json', '--rules', rules, '-'], { cwd, env: searching, input: text });
      const out = [];
      for (const f of JSON.parse(r.stdout.toString('utf8')).files) for (const d of f.diagnostics || []) out.push({ ...d, file: f.file });
      return out;
    };
    const a = await mcpdesc.validate(text, { rules, cwd: withConfig, env: searching });
    const b = await mcpdesc.validate(text, { rules, cwd: without, env: searching });
    const a2 = await mcpdesc.validate(text, { rules, cwd: withConfig, env: searching });
    sameFindings(a, inDir(withConfig), 'the folder with a config');
    sameFindings(b, inDir(without), 'the folder without one');
    sameFindings(a2, a, 'the folder with a config, again');
    assert.ok(b.length > a.length, 'the config turned a rule off in its folder only');

    // the environment: MCPDESC_RULES names the set for one call, not the next
    const security = path.join(rules, 'security');
    const one = await mcpdesc.validateReport(text, { env: { ...env, MCPDESC_RULES: security } });
    const next = await mcpdesc.validateReport(text, { env });
    assert.equal(one.rules.name, 'mcpdesc-security');
    assert.equal(next.rules.name, 'mcpdesc-mcp');
    assert.ok(next.rules.dir.startsWith('/mcpdesc-embedded/'), `the carried set: ${next.rules.dir}`);

    // standard input: a call that stops before reading it, one that reads half a document
    // (not a description), then a whole one: judged as the native program judges it
    await assert.rejects(mcpdesc.validate('{"leftover": ', { rules, preset: 'none', env }), (e) => e.status === 2);
    await assert.rejects(mcpdesc.validate('{"mcpDescription": ', { rules, env }), (e) => e.status === 2);
    sameFindings(await mcpdesc.validate(text, { rules, preset: 'all', env }), nativeFindings(['--rules', rules, '--preset', 'all', '-'], text), 'after the errors');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// The rule sets carried inside are loaded once and kept for later calls when nothing
// else can be found (no rules folder, no MCPDESC_RULES, no MCPDESC_RULES_PATH:
// src/cli/wasm_api.c): the kept set must judge every call as a fresh load does.
test('the carried rule set, kept between calls: every fixture as the native program judges it with that release', async () => {
  const set = JSON.parse(nativeRun(['rules', 'list', '--format', 'json', '--rules', rules]).stdout);
  const spec = `${set.name}@${set.tag}`;
  const carriedEnv = { ...env };
  delete carriedEnv.MCPDESC_RULES_PATH;
  delete carriedEnv.MCPDESC_RULES;
  const files = [];
  for (const dir of ['expected-invalid', 'expected-warning', 'expected-valid']) {
    for (const name of fs.readdirSync(path.join(top, 'conformance', dir)).sort()) {
      if (/\.(json|ya?ml)$/.test(name)) files.push(path.join('conformance', dir, name));
    }
  }
  let judged = 0;
  for (const file of files) {
    const args = ['--rules-tag', spec, '--preset', 'all', file];
    if (nativeRun(['validate', '--format', 'json', ...args]).status === 2) continue;
    const want = nativeFindings(args);
    const text = fs.readFileSync(path.join(top, file), 'utf8');
    // the default set and the same release by its tag, alternately: two kept sets
    sameFindings(await mcpdesc.validate(text, { preset: 'all', filepath: file, cwd: top, env: carriedEnv }), want, `${file} (default)`);
    sameFindings(await mcpdesc.validate(text, { rulesTag: spec, preset: 'all', filepath: file, cwd: top, env: carriedEnv }), want, `${file} (${spec})`);
    judged++;
  }
  assert.ok(judged > 30, `fixtures judged: ${judged}`);
  // another carried set by its tag, then the default again: each call gets the set it asks for
  const empty = '{"mcpDescription": "0.9.0"}';
  let security;
  for (const release of fs.readdirSync(releases).filter((n) => n.startsWith('mcpdesc-security@')).sort()) {
    try {
      security = await mcpdesc.validateReport(empty, { rulesTag: release, env: carriedEnv });
    } catch (e) {
      assert.equal(e.status, 2, e.stderr); // a release not carried inside: not found
    }
  }
  assert.ok(security, 'a mcpdesc-security release is carried inside');
  assert.equal(security.rules.name, 'mcpdesc-security');
  const report = await mcpdesc.validateReport(empty, { env: carriedEnv });
  assert.equal(report.rules.name, 'mcpdesc-mcp');
  assert.ok(report.rules.dir.startsWith('/mcpdesc-embedded/'), `the carried set: ${report.rules.dir}`);
});

// A call frees what it allocated (cmd_validate.c built with MCPDESC_FREE_AT_EXIT for this
// module, mk/npm.mk): the command line leaves its rule set and documents to the process's
// exit, which here never comes (about 1.5 MiB a call on this description if it did).
// WebAssembly memory only grows, so its size after many calls says what they kept.
test('the module frees what a call allocates: its memory stops growing', async () => {
  const moduleFile = path.join(path.dirname(require.resolve('mcpdesc')), 'wasm', 'mcpdesc-api.js');
  const made = require(moduleFile)();
  const m = made && made.ready ? await made.ready : made;
  const text = fs.readFileSync(path.join(top, 'examples', 'weather.json'));
  const args = ['validate', '--format', 'json', '--fail-on', 'never', '--rules', rules, '--preset', 'all', '--stdin-filepath', 'weather.json', '-'];
  const call = () => {
    const r = m.mcpdescCall(args, { input: text, cwd: top, env });
    assert.equal(r.status, 0, r.stderr);
  };
  for (let i = 0; i < 5; i++) call();
  const before = m.HEAP8.length;
  for (let i = 0; i < 30; i++) call();
  const grown = (m.HEAP8.length - before) / (1 << 20);
  assert.ok(grown <= 4, `memory grew by ${grown} MiB over 30 calls`);
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
