// mcp-seed-rules.js - the two seed rules of mcpdesc (rules-yaml/tool.yaml) written as a
// Spectral 6 JavaScript ruleset, for the benchmark (tools/bench/run.sh). It does the same
// work as mcpdesc: effective versions (the document's protocolVersions, narrowed by an
// item's), $componentRef resolution (chains, pointers inside components, RFC 6901 and
// percent escapes; dangling, cyclic or malformed references stay unresolved and are not
// judged), and a judgment per version, grouped into one result per rule, node and
// failure. Each message ends with the node's JSON pointer in the resolved document and
// the versions concerned, "at /tools/3/inputSchema/properties/x (v1, v2)", so run.sh can
// compare (rule, pointer, versions) with mcpdesc's JSON report: Spectral's own `path`
// stops at the last node that exists in the file as written (for a value reached through
// $componentRef, the reference site), because it cannot name a path inside a substitution.
//
// Rules run on the unresolved document (resolved: false): $componentRef is not JSON
// Schema's $ref, and the $refs inside schemas are relative to the schema, not the file.

const KNOWN = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
const REF = '$componentRef';
const PREFIX = '#/components/schemas/';

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// Known versions of a protocolVersions value, oldest first, kept only if in `within`.
function versionsOf(list, within) {
  if (!Array.isArray(list)) return within;
  return KNOWN.filter((v) => within.includes(v) && list.includes(v));
}

// Effective versions, per document (cached on the root object: one computation per run).
function docVersions(root) {
  return 'protocolVersions' in root ? versionsOf(root.protocolVersions, KNOWN) : KNOWN;
}

function decodeToken(t) {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

// The value a reference object stands for, following chains; undefined when it is
// dangling, cyclic or malformed (mcpdesc reports those as built-ins and judges nothing).
function resolve(root, node, seen) {
  if (!isObj(node) || !(REF in node)) return node;
  const ref = node[REF];
  if (Object.keys(node).length !== 1 || typeof ref !== 'string' || !ref.startsWith(PREFIX)) {
    return undefined;
  }
  seen = seen || new Set();
  if (seen.has(ref)) return undefined;
  seen.add(ref);
  let frag;
  try {
    frag = decodeURIComponent(ref.slice(1));
  } catch (e) {
    return undefined;
  }
  let cur = root;
  for (const tok of frag.split('/').slice(1).map(decodeToken)) {
    cur = resolve(root, cur, seen);
    if (Array.isArray(cur) && /^(0|[1-9][0-9]*)$/.test(tok) && Number(tok) < cur.length) {
      cur = cur[Number(tok)];
    } else if (isObj(cur) && Object.prototype.hasOwnProperty.call(cur, tok)) {
      cur = cur[tok];
    } else {
      return undefined;
    }
  }
  return resolve(root, cur, seen);
}

// A member of a resolved object, itself resolved (undefined when absent or unresolved).
function member(root, obj, key) {
  if (!isObj(obj) || !Object.prototype.hasOwnProperty.call(obj, key)) return undefined;
  return resolve(root, obj[key]);
}

const typeIs = (s, t) => isObj(s) && s.type === t;
const typeIncludes = (s, t) => isObj(s) && (s.type === t || (Array.isArray(s.type) && s.type.includes(t)));
const admitsObject = (s) => isObj(s) && (!('type' in s) || typeIncludes(s, 'object'));

function context(ctx) {
  const root = ctx.document.data;
  const tool = ctx.path.reduce((o, k) => o[k], root);
  const effective = isObj(tool) && 'protocolVersions' in tool
    ? versionsOf(tool.protocolVersions, docVersions(root))
    : docVersions(root);
  return { root, tool, effective, path: ctx.path };
}

const pointer = (path) => path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');

// Group failing versions by message: one result per node and failure.
function report(results, path, failures) {
  const byMsg = new Map();
  for (const [msg, v] of failures) {
    if (!byMsg.has(msg)) byMsg.set(msg, []);
    byMsg.get(msg).push(v);
  }
  for (const [msg, vs] of byMsg) {
    results.push({ message: `${msg} at ${pointer(path)} (${vs.join(', ')})`, path });
  }
}

// mcp.tool.input-schema.object-root: applies to every version; per version, the first
// failing clause reports.
function objectRoot(targetVal, _opts, ctx) {
  const { root, tool, effective, path } = context(ctx);
  const results = [];
  if (!isObj(tool) || !('inputSchema' in tool)) return results;
  const s = resolve(root, tool.inputSchema);
  if (s === undefined) return results;
  const failures = [];
  for (const v of effective) {
    if (!isObj(s)) failures.push(['inputSchema must be a JSON object', v]);
    else if ('type' in s && !typeIncludes(s, 'object')) failures.push(['inputSchema root "type" must include "object"', v]);
    else if (v < '2025-11-25' && !typeIs(s, 'object')) failures.push(['inputSchema root must declare "type": "object" before MCP 2025-11-25', v]);
  }
  report(results, [...path, 'inputSchema'], failures);
  return results;
}

// Top-level properties values that are not JSON objects, for version v.
function propertyFailures(root, schema, base, v, what, out) {
  const props = member(root, schema, 'properties');
  if (!isObj(props)) return;
  for (const k of Object.keys(props)) {
    const p = resolve(root, props[k]);
    if (p !== undefined && !isObj(p)) {
      out.push([[...base, 'properties', k], `MCP 2025-11-25 expects a JSON object for each top-level ${what} property schema`, v]);
    }
  }
}

// mcp.tool.schema.native-shape: applies from 2025-11-25; the output root and the
// properties clauses for 2025-11-25 only.
function nativeShape(targetVal, _opts, ctx) {
  const { root, tool, effective, path } = context(ctx);
  const results = [];
  if (!isObj(tool)) return results;
  const ins = member(root, tool, 'inputSchema');
  const outs = member(root, tool, 'outputSchema');
  const failures = []; // [path, message, version]
  for (const v of effective) {
    if (v < '2025-11-25') continue;
    if (admitsObject(ins) && !typeIs(ins, 'object')) {
      failures.push([[...path, 'inputSchema'], 'the MCP Tool type expects a literal "type": "object" at the inputSchema root', v]);
    }
    if (v !== '2025-11-25') continue;
    if (isObj(outs) && !typeIs(outs, 'object')) {
      failures.push([[...path, 'outputSchema'], 'MCP 2025-11-25 restricts outputSchema to a literal "type": "object" root', v]);
    }
    if (admitsObject(ins)) propertyFailures(root, ins, [...path, 'inputSchema'], v, 'inputSchema', failures);
    if (isObj(outs)) propertyFailures(root, outs, [...path, 'outputSchema'], v, 'outputSchema', failures);
  }
  const byNode = new Map();
  for (const [p, msg, v] of failures) {
    const key = JSON.stringify(p);
    if (!byNode.has(key)) byNode.set(key, { p, list: [] });
    byNode.get(key).list.push([msg, v]);
  }
  for (const { p, list } of byNode.values()) report(results, p, list);
  return results;
}

export default {
  rules: {
    'mcp.tool.input-schema.object-root': {
      message: '{{error}}',
      severity: 'error',
      resolved: false,
      given: '$.tools[*]',
      then: { function: objectRoot },
    },
    'mcp.tool.schema.native-shape': {
      message: '{{error}}',
      severity: 'warn',
      resolved: false,
      given: '$.tools[*]',
      then: { function: nativeShape },
    },
  },
};
