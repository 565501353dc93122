#!/usr/bin/env node
// summarize.js [--full] OLD NEW - a review aid, not the diff: list the raw differences
// between two captures (MCP Descriptions) of one server, item by item, so a person can
// write expected/NAME.txt. Items are matched by identity (tools and prompts by name,
// resources by uri, templates by uriTemplate); object key order, the order of `required`,
// `enum` and `type` arrays, of anyOf/oneOf alternatives and of prompt arguments (matched
// by name) are not differences. Long strings are cut at 160 characters unless --full.
// Output: one line per difference, `KIND NAME: - PATH: OLD`, `+ PATH: NEW` or
// `~ PATH: OLD -> NEW`, with PATH a JSON pointer inside the item.
'use strict';
const fs = require('fs');

const args = process.argv.slice(2);
const full = args[0] === '--full';
if (full) args.shift();
if (args.length !== 2) {
    process.stderr.write('usage: node summarize.js [--full] OLD.json NEW.json\n');
    process.exit(2);
}
const [oldDoc, newDoc] = args.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));

// arrays whose order carries no meaning: compared as sets of canonical texts
const SET_ARRAYS = new Set(['required', 'enum', 'type', 'anyOf', 'oneOf', 'allOf', 'protocolVersions']);

// keys sorted at every level, and the members of an order-free array (SET_ARRAYS, by the
// key that holds it): two values are equal when their canonical texts are
function canonical(v, key) {
    if (Array.isArray(v)) {
        const items = v.map((x) => canonical(x, ''));
        if (SET_ARRAYS.has(key)) items.sort();
        return '[' + items.join(',') + ']';
    }
    if (v && typeof v === 'object')
        return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k], k)).join(',') + '}';
    return JSON.stringify(v);
}

function show(v) {
    const s = typeof v === 'string' ? JSON.stringify(v) : canonical(v);
    return full || s.length <= 160 ? s : s.slice(0, 157) + '...';
}

const esc = (k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');

function diff(a, b, path, key, out) {
    if (canonical(a, key) === canonical(b, key)) return;
    if (Array.isArray(a) && Array.isArray(b) && key === 'arguments') {
        // prompt arguments: matched by name
        return diffByIdentity(a, b, 'name', path, out);
    }
    if (Array.isArray(a) && Array.isArray(b) && SET_ARRAYS.has(key)) {
        const as = new Set(a.map(canonical));
        const bs = new Set(b.map(canonical));
        for (const x of a) if (!bs.has(canonical(x))) out.push(`- ${path}[]: ${show(x)}`);
        for (const x of b) if (!as.has(canonical(x))) out.push(`+ ${path}[]: ${show(x)}`);
        return;
    }
    const bothObjects = a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
    if (bothObjects) {
        for (const k of Object.keys(a)) {
            if (!(k in b)) out.push(`- ${path}/${esc(k)}: ${show(a[k])}`);
            else diff(a[k], b[k], `${path}/${esc(k)}`, k, out);
        }
        for (const k of Object.keys(b)) if (!(k in a)) out.push(`+ ${path}/${esc(k)}: ${show(b[k])}`);
        return;
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
        a.forEach((x, i) => diff(x, b[i], `${path}/${i}`, String(i), out));
        return;
    }
    out.push(`~ ${path || '/'}: ${show(a)} -> ${show(b)}`);
}

function diffByIdentity(a, b, id, path, out) {
    const bIds = new Map(b.map((x) => [x[id], x]));
    const aIds = new Map(a.map((x) => [x[id], x]));
    for (const x of a) {
        const y = bIds.get(x[id]);
        if (y === undefined) out.push(`- ${path}/${esc(x[id])}: ${show(x)}`);
        else diff(x, y, `${path}/${esc(x[id])}`, '', out);
    }
    for (const y of b) if (!aIds.has(y[id])) out.push(`+ ${path}/${esc(y[id])}: ${show(y)}`);
}

const lines = [];
// the description as a whole: everything but the item lists and the capturing tool
for (const k of new Set([...Object.keys(oldDoc), ...Object.keys(newDoc)])) {
    if (['tools', 'prompts', 'resources', 'resourceTemplates', 'x-capturedBy'].includes(k)) continue;
    const out = [];
    if (!(k in newDoc)) out.push(`- /${k}: ${show(oldDoc[k])}`);
    else if (!(k in oldDoc)) out.push(`+ /${k}: ${show(newDoc[k])}`);
    else diff(oldDoc[k], newDoc[k], `/${k}`, k, out);
    for (const l of out) lines.push(`server: ${l}`);
}

const KINDS = [
    ['tools', 'tool', 'name'],
    ['prompts', 'prompt', 'name'],
    ['resources', 'resource', 'uri'],
    ['resourceTemplates', 'template', 'uriTemplate'],
];
for (const [list, kind, id] of KINDS) {
    const a = oldDoc[list] || [];
    const b = newDoc[list] || [];
    const bIds = new Map(b.map((x) => [x[id], x]));
    const aIds = new Set(a.map((x) => x[id]));
    for (const x of a) {
        const y = bIds.get(x[id]);
        if (y === undefined) {
            lines.push(`${kind} ${x[id]}: removed`);
            continue;
        }
        const out = [];
        diff(x, y, '', '', out);
        for (const l of out) lines.push(`${kind} ${x[id]}: ${l}`);
    }
    for (const y of b) if (!aIds.has(y[id])) lines.push(`${kind} ${y[id]}: added`);
}
process.stdout.write(lines.map((l) => l + '\n').join(''));
