import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const FIRST_ROUTE_BUDGET_KB = 300;

function firstRouteAssets(distDir: string): string[] {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  return [...new Set(refs)].map((ref) => path.join(distDir, ref.replace(/^\//, '')));
}

/** What the first route costs the browser: index.html's eager assets, gzip -9. */
export function bundleReport(distDir: string) {
  const files = firstRouteAssets(distDir);
  const rows = files.map((file) => {
    const raw = fs.readFileSync(file);
    return { file: path.relative(distDir, file), kind: path.extname(file).slice(1), raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  });
  const total = rows.reduce((sum, r) => sum + r.gzip, 0);
  const lazy = fs.readdirSync(path.join(distDir, 'assets')).filter((f) => f.endsWith('.js')).length - rows.filter((r) => r.kind === 'js').length;
  return { rows, total, lazy };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function printBundleReport(distDir: string): void {
  const bundle = bundleReport(distDir);
  console.log('First route (index.html and what it loads eagerly), gzip -9:');
  for (const row of bundle.rows) console.log(`  ${row.kind.padEnd(3)} ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} raw ${kb(row.gzip).padStart(10)} gzip`);
  console.log(`  total ${kb(bundle.total)} gzip (budget ${FIRST_ROUTE_BUDGET_KB} KB: ${bundle.total <= FIRST_ROUTE_BUDGET_KB * 1024 ? 'within' : 'OVER'}); ${bundle.lazy} more chunks load lazily`);
}
