// index.d.ts - the types of the mcpdesc package's API (index.js, docs/npm.md).

/** One finding: a diagnostic of `mcpdesc validate --format json`, with its file. */
export interface Finding {
  /** the rule's id, e.g. "mcp.tool.input-schema.object-root" */
  rule: string;
  level: 'error' | 'warning' | 'info';
  /** RFC 6901 JSON Pointer into the description */
  pointer: string;
  /** the protocol versions the finding holds for */
  versions: string[];
  message: string;
  hint?: string;
  /** 1-based position of the value in the file's text */
  line?: number;
  column?: number;
  /** the component ($componentRef) the finding is in, as a pointer */
  component?: string;
  /** with options.baseline: "new", or "unchanged" for one the baseline records (the JSON report keeps it, marked; docs/ci.md) */
  baselineState?: string;
  /** the file as the report names it (options.filepath or "<stdin>" for a text) */
  file: string;
  /** any other member the JSON report gives (docs/format.md) */
  [member: string]: unknown;
}

/** The whole JSON report (`mcpdesc validate --format json`). */
export interface Report {
  mcpdesc: string;
  rules: RuleSetInfo;
  preset: string;
  files: Array<{
    file: string;
    diagnostics?: Array<Omit<Finding, 'file'>>;
    error?: { message: string; line?: number; column?: number };
    [member: string]: unknown;
  }>;
  summary: { files: number; errors: number; warnings: number; infos: number; inputErrors: number; [member: string]: unknown };
  [member: string]: unknown;
}

export interface RuleSetInfo {
  name: string;
  tag?: string;
  derivedFrom?: string;
  modified?: boolean;
  /** "sha256:HEX" */
  digest?: string;
  dir: string;
  shipped?: boolean;
  [member: string]: unknown;
}

export interface Rule {
  id: string;
  level: string;
  severity: string;
  surface: string;
  versions: string[];
  preset: string;
  file?: string;
  requirement?: string;
  [member: string]: unknown;
}

/** What loadRules returns (`mcpdesc rules list --format json`); give it as options.rules. */
export interface RuleSet extends RuleSetInfo {
  rules: Rule[];
}

export interface RunOptions {
  /** the working directory of the run (default: process.cwd()): config search, relative paths */
  cwd?: string;
  /** the environment of the run (default: process.env): MCPDESC_RULES, MCPDESC_RULES_PATH ... */
  env?: NodeJS.ProcessEnv;
}

export interface ValidateOptions extends RunOptions {
  /** --rules: a rule-set folder or release folder NAME@TAG/, or what loadRules returned */
  rules?: string | RuleSet;
  /** --rules-tag: TAG, NAME@TAG, or NAME@TAG@sha256:HEX (a pinned digest) */
  rulesTag?: string;
  /** --preset */
  preset?: 'recommended' | 'strict' | 'all';
  /** --rule GLOB (repeatable) */
  rule?: string | string[];
  /** --skip GLOB (repeatable) */
  skip?: string | string[];
  /** --protocol-version V (repeatable) */
  protocolVersion?: string | string[];
  /** --config FILE (docs/config.md) */
  config?: string;
  /** --no-config */
  noConfig?: boolean;
  /** --baseline FILE: only findings not recorded in it */
  baseline?: string;
  /** --strict-inputs */
  strictInputs?: boolean;
  /** --stdin-filepath: the name of a text or object in the report; .json/.yaml/.yml picks the parser */
  filepath?: string;
}

/** Findings of a description (an object, or its JSON or YAML text). */
export function validate(description: string | Buffer | object, options?: ValidateOptions): Promise<Finding[]>;
export function validateReport(description: string | Buffer | object, options?: ValidateOptions): Promise<Report>;
/** Findings of files and folders, found as `mcpdesc validate PATH...` finds them. */
export function validateFiles(paths: string | string[], options?: Omit<ValidateOptions, 'filepath'>): Promise<Finding[]>;
export function validateFilesReport(paths: string | string[], options?: Omit<ValidateOptions, 'filepath'>): Promise<Report>;
/** A rule set: an existing folder, else a release TAG, NAME@TAG or NAME@TAG@sha256:HEX. */
export function loadRules(spec: string, options?: RunOptions): Promise<RuleSet>;

/** Exit status 2 of the command line: bad usage, a rule set that does not load, an input error. */
export class McpdescError extends Error {
  status: number;
  stderr: string;
  args: string[];
  /** the JSON report, when there was one (an input error: report.files[i].error) */
  report?: Report;
}
