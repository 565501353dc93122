// compare.js JSON EXPECTED DIFFERENCES NAME - the changes `mcpdesc diff --format json`
// found in one real pair (JSON) against the hand-reviewed list (EXPECTED,
// "CATEGORY ITEM-KIND ITEM-NAME: what changed", README.md): compares each
// "CATEGORY ITEM-KIND ITEM-NAME" with its count. A key whose counts differ must be listed
// in DIFFERENCES for pair NAME ("NAME KEY: ours N, reviewed M: why"), with exactly those
// counts; every listed difference must still be one. Prints what does not hold; exit 1
// then, else 0.
'use strict';
const fs = require('fs');
const [json, expected, differences, name] = process.argv.slice(2);
const report = JSON.parse(fs.readFileSync(json, 'utf8'));
const count = (m, k) => m.set(k, (m.get(k) || 0) + 1);

// ours: one key per change; a description-level change names its member
const kindOf = { tool: 'tool', prompt: 'prompt', resource: 'resource',
    'resource template': 'template', document: 'server' };
const member = (rule) => rule.startsWith('diff.protocol.version') ? 'protocolVersions'
    : rule.startsWith('diff.protocol.capability') ? 'capabilities' : 'description';
const ours = new Map();
for (const pair of report.pairs || [])
    for (const c of pair.changes || []) {
        if (c.suppressed) continue;
        const kind = kindOf[c.item && c.item.kind] || (c.item && c.item.kind) || '?';
        const nm = kind === 'server' ? member(c.rule) : (c.item && c.item.name);
        count(ours, `${c.category || 'none'} ${kind} ${nm}`);
    }

// reviewed
const want = new Map();
for (const line of fs.readFileSync(expected, 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^(caller|output|protocol|trust|compatible) (tool|prompt|resource|template|server) ([^ ]+): /.exec(line);
    if (!m) { console.log(`${expected}: not a change line: ${line}`); process.exitCode = 1; continue; }
    count(want, `${m[1]} ${m[2]} ${m[3]}`);
}

// the differences reviewed and accepted, with their reasons
const accepted = new Map();
for (const line of fs.readFileSync(differences, 'utf8').split('\n')) {
    const m = /^([^ #]+) (\S+ \S+ \S+): ours (\d+), reviewed (\d+): (.+)$/.exec(line);
    if (m && m[1] === name) accepted.set(m[2], [Number(m[3]), Number(m[4])]);
}

let bad = 0;
for (const key of new Set([...ours.keys(), ...want.keys(), ...accepted.keys()])) {
    const o = ours.get(key) || 0, w = want.get(key) || 0, a = accepted.get(key);
    if (o === w && !a) continue;
    if (a && a[0] === o && a[1] === w && o !== w) continue;
    bad++;
    if (a && o === w) console.log(`${name} ${key}: listed in ${differences}, but ours and reviewed now agree (${o}): remove the line`);
    else console.log(`${name} ${key}: ours ${o}, reviewed ${w}${a ? ` (listed as ours ${a[0]}, reviewed ${a[1]})` : ''}`);
}
if (bad) process.exitCode = 1;
