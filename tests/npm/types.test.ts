// types.test.ts - the package's TypeScript types (tools/npm/index.d.ts), checked by
// `tsc --noEmit --strict` in the scratch project (tests/npm/run.sh, when tsc is there).
// Each @ts-expect-error line is a misuse the types must refuse: tsc fails if it passes.
import { validate, validateFiles, loadRules, McpdescError, type Finding, type RuleSet } from 'mcpdesc';

async function main(): Promise<void> {
  const set: RuleSet = await loadRules('mcpdesc-mcp@v0.9.0-rc.14');
  const ids: string[] = set.rules.map((r) => r.id);
  const findings: Finding[] = await validate({ mcpDescription: '0.9.0' }, { rules: set, preset: 'all', skip: ['mcp.server.*'] });
  for (const f of findings) {
    const where: string = `${f.file}:${f.line ?? 0}:${f.column ?? 0}`;
    const versions: string[] = f.versions;
    console.log(where, f.rule, f.level, f.pointer, versions, f.message, ids.length);
  }
  await validateFiles(['a.json', 'b.yaml'], { rulesTag: 'mcpdesc-mcp@v0.9.0-rc.14@sha256:00', baseline: 'b.json' });
  try {
    await validate('{}', { protocolVersion: '2025-11-25', noConfig: true, cwd: '/', env: {} });
  } catch (e) {
    if (e instanceof McpdescError) console.log(e.status, e.stderr, e.report?.summary.inputErrors);
  }
  // @ts-expect-error: no such preset
  await validate('{}', { preset: 'everything' });
  // @ts-expect-error: level is a string, not a number
  const level: number = findings[0].level;
  // @ts-expect-error: validateFiles names files, not a filepath for standard input
  await validateFiles('a.json', { filepath: 'x.json' });
  console.log(level);
}
void main();
