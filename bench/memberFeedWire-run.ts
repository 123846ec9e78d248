// The member's first page alone (issue 39, item 4), with what it is made of: every JS and CSS file
// on the wire with its headers and the modules in it, then the bytes on the wire per package or
// module (a file's bytes shared among its modules by their minified sizes, bench/chunkSources.ts).
// Builds nothing: `npm run build` (or `vite build --outDir <dir>`) first.
//
//   node --import tsx bench/memberFeedWire-run.ts [distDir] [--json report.json]
import fs from 'node:fs';
import path from 'node:path';
import { MEMBER_FEED_WIRE_TARGET_KB } from './bundle';
import { chunkSources } from './chunkSources';
import { measureMemberFeedOnWire } from './memberFeedWire';

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
const distDir = path.resolve(args[0] ?? 'dist');
const report = await measureMemberFeedOnWire(distDir);
// the responses as measured, for comparing two builds
if (jsonFile !== undefined) fs.writeFileSync(jsonFile, JSON.stringify(report));
const code = report.responses.filter((r) => r.type === 'Script' || r.type === 'Stylesheet' || /\.(?:js|css)$/.test(r.path)).sort((a, b) => b.transfer - a.transfer);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const perGroup = new Map<string, number>();
const add = (group: string, bytes: number) => perGroup.set(group, (perGroup.get(group) ?? 0) + bytes);
console.log(`${'file'.padEnd(50)} ${'wire KB'.padStart(8)} ${'headers'.padStart(8)}  largest modules (minified KB)`);
for (const r of code) {
  const headers = r.transfer - r.body;
  add('(response headers)', headers);
  const sizes = [...chunkSources(path.join(distDir, r.path))].sort((a, b) => b[1] - a[1]);
  const total = sizes.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) add(`(${r.path})`, r.body);
  for (const [group, n] of sizes) add(group, (r.body * n) / total);
  const largest = sizes.slice(0, 4).map(([group, n]) => `${group} ${kb(n)}`).join(', ');
  console.log(`${r.path.padEnd(50)} ${kb(r.transfer).padStart(8)} ${kb(headers).padStart(8)}  ${largest}`);
}
const transfer = code.reduce((sum, r) => sum + r.transfer, 0);
console.log('\nOn the wire per package or module (KB):');
for (const [group, bytes] of [...perGroup].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${kb(bytes).padStart(8)}  ${group}`);
console.log(`\nJS + CSS ${kb(transfer)} KB on the wire in ${String(code.length)} files; target ≤ ${String(MEMBER_FEED_WIRE_TARGET_KB)} KB: ${transfer <= MEMBER_FEED_WIRE_TARGET_KB * 1024 ? 'met' : 'NOT met'}`);
