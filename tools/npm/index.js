// index.js - the API of the npm package mcpdesc (docs/npm.md, index.d.ts): validate a
// description (an object or its JSON/YAML text) or files, load a rule set.
//
// Each call runs the command line's `validate --format json` (or `rules list --format
// json`) as a function of the API's WebAssembly module (wasm/mcpdesc-api.js: make npm,
// src/cli/wasm_api.c, api-pre.js), instantiated once per process on the first call and
// kept: no child process, no second compile. The call has its own arguments, working
// directory, environment and standard input; what it writes is kept in memory and its
// JSON report read here. The report is the native program's byte for byte (make
// test-wasm; make test-npm compares the findings field by field), so the findings are
// the CLI's, with the config, baseline, preset and pins as the CLI applies them.
//
// CommonJS, written as `exports.NAME = ...` so that node's ESM loader also finds the
// names: `import { validate } from 'mcpdesc'` and `require('mcpdesc')` both work.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const API_MODULE = path.join(__dirname, 'wasm', 'mcpdesc-api.js');

// The command line's exit status 2 (bad usage, a rule set that does not load, an input
// that is not a description), with what it printed.
class McpdescError extends Error {
  constructor(message, details) {
    super(message);
    this.name = 'McpdescError';
    this.status = details.status;
    this.stderr = details.stderr;
    this.args = details.args;
    if (details.report) this.report = details.report;
  }
}

// The module's instance, made on the first call (a promise: instantiating is
// asynchronous in emscripten's MODULARIZE), dropped when a call breaks it (an abort:
// out of memory) so that the next call starts a new one.
let instance;
function api() {
  if (!instance) {
    const made = require(API_MODULE)();
    instance = made && made.ready ? made.ready : Promise.resolve(made); // emscripten 3.1.6 | newer
  }
  return instance;
}

// run(ARGS, {input, cwd, env}) -> Promise<{status, stdout, stderr}>: `mcpdesc ARGS...`
// in the module, as a child process with that working directory, environment and
// standard input would run it.
async function run(args, opts) {
  const m = await api();
  const input = opts.input === undefined ? undefined : Buffer.isBuffer(opts.input) ? opts.input : Buffer.from(opts.input, 'utf8');
  try {
    return m.mcpdescCall(args, {
      input,
      cwd: path.resolve(opts.cwd || process.cwd()),
      env: opts.env || process.env,
    });
  } finally {
    if (m.mcpdescBroken) instance = undefined;
  }
}

function list(value, name) {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  for (const v of items) {
    if (typeof v !== 'string') throw new TypeError(`mcpdesc: option ${name} takes strings`);
  }
  return items;
}

// The command-line arguments that choose the rule set: a RuleSet from loadRules, or a
// folder (--rules), or a release NAME@TAG, NAME@TAG@sha256:HEX or TAG (--rules-tag).
function ruleArgs(options) {
  const args = [];
  const rules = options.rules;
  if (rules !== undefined) {
    if (rules && typeof rules === 'object' && Array.isArray(rules[RULE_ARGS])) args.push(...rules[RULE_ARGS]);
    else if (typeof rules === 'string') args.push('--rules', rules);
    else throw new TypeError('mcpdesc: option rules takes a folder or what loadRules returned');
  }
  for (const tag of list(options.rulesTag, 'rulesTag')) args.push('--rules-tag', tag);
  return args;
}

function commonArgs(options) {
  const args = ruleArgs(options);
  if (options.config !== undefined) args.push('--config', String(options.config));
  if (options.noConfig) args.push('--no-config');
  return args;
}

function validateArgs(options) {
  const args = ['validate', '--format', 'json', '--color', 'never', '--fail-on', 'never', ...commonArgs(options)];
  if (options.preset !== undefined) args.push('--preset', String(options.preset));
  for (const r of list(options.rule, 'rule')) args.push('--rule', r);
  for (const s of list(options.skip, 'skip')) args.push('--skip', s);
  for (const v of list(options.protocolVersion, 'protocolVersion')) args.push('--protocol-version', v);
  if (options.baseline !== undefined) args.push('--baseline', String(options.baseline));
  if (options.strictInputs) args.push('--strict-inputs');
  return args;
}

async function report(args, input, options) {
  const r = await run(args, { input, cwd: options.cwd, env: options.env });
  let parsed;
  try {
    parsed = r.stdout === '' ? undefined : JSON.parse(r.stdout);
  } catch (e) {
    parsed = undefined;
  }
  if (r.status !== 0 || parsed === undefined) {
    const first = r.stderr.split('\n').find((l) => l !== '') || `mcpdesc exited with status ${r.status}`;
    const inputError = parsed && parsed.files && parsed.files.find((f) => f.error);
    const message = inputError ? `${inputError.file}:${inputError.error.line || 0}:${inputError.error.column || 0}: ${inputError.error.message}` : first;
    throw new McpdescError(message, { status: r.status, stderr: r.stderr, args, report: parsed });
  }
  return parsed;
}

// The findings of a report, one array: each diagnostic as the JSON report has it, with
// the file it is about.
function findingsOf(rep) {
  const out = [];
  for (const f of rep.files || []) {
    for (const d of f.diagnostics || []) out.push({ ...d, file: f.file });
  }
  return out;
}

// validateReport(DESCRIPTION | TEXT, OPTIONS) -> the whole JSON report (`--format json`)
function validateReport(description, options = {}) {
  let text;
  if (typeof description === 'string') text = description;
  else if (Buffer.isBuffer(description)) text = description;
  else if (description && typeof description === 'object') text = JSON.stringify(description, null, 2) + '\n';
  else return Promise.reject(new TypeError('mcpdesc: validate takes a description object or its text'));
  const args = validateArgs(options);
  if (options.filepath !== undefined) args.push('--stdin-filepath', String(options.filepath));
  args.push('-');
  return report(args, text, options);
}

// validate(DESCRIPTION | TEXT, OPTIONS) -> the findings
async function validate(description, options = {}) {
  return findingsOf(await validateReport(description, options));
}

// validateFilesReport(PATHS, OPTIONS) / validateFiles: files and folders, as
// `mcpdesc validate PATH...` finds them
function validateFilesReport(paths, options = {}) {
  const files = list(paths, 'paths');
  if (files.length === 0) return Promise.reject(new TypeError('mcpdesc: validateFiles takes at least one path'));
  return report([...validateArgs(options), '--', ...files], undefined, options);
}

async function validateFiles(paths, options = {}) {
  return findingsOf(await validateFilesReport(paths, options));
}

const RULE_ARGS = Symbol('mcpdesc.ruleArgs');

// loadRules(NAME@TAG | TAG | DIR, OPTIONS) -> the rule set (`mcpdesc rules list --format
// json`): name, tag, digest, dir, shipped, rules. A spec that names an existing folder is
// a folder (--rules); any other is a release (--rules-tag; @sha256:HEX pins its digest).
// The result can be given as validate's `rules` option: it runs the same set the same way.
async function loadRules(spec, options = {}) {
  if (typeof spec !== 'string' || spec === '') throw new TypeError('mcpdesc: loadRules takes NAME@TAG or a folder');
  const cwd = options.cwd || process.cwd();
  let isDir = false;
  try {
    isDir = fs.statSync(path.resolve(cwd, spec)).isDirectory();
  } catch (e) {
    isDir = false;
  }
  const args = isDir ? ['--rules', spec] : ['--rules-tag', spec];
  const set = await report(['rules', 'list', '--format', 'json', ...args], undefined, options);
  Object.defineProperty(set, RULE_ARGS, { value: args });
  return set;
}

exports.validate = validate;
exports.validateReport = validateReport;
exports.validateFiles = validateFiles;
exports.validateFilesReport = validateFilesReport;
exports.loadRules = loadRules;
exports.McpdescError = McpdescError;
