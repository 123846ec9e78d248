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

// What the dataset page loads per visualisation (issue 8): from Vite's manifest, the chunks the
// page's own chunk imports statically, plus those of the renderer a dataset picks through the
// page's dynamic imports, beyond what the first route already loaded. Which library a chunk
// carries is read from its source map, so a vendor chunk with a hashed name is still recognised.

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
type Manifest = Record<string, ManifestChunk>;

const DATASET_PAGE = 'src/ui/pages/datasets/DatasetPage.tsx';
/** The route table: loaded after sign-in, before any page, so already in the browser. */
const SHELL_ROUTES = 'src/ui/shell/AppRoutes.tsx';
const RENDERERS_DIR = 'src/ui/pages/datasets/visualisations/';
/** The renderer modules a dataset of each kind needs (matched against module paths in the chunks' source maps). */
const RENDERERS = {
  'bar chart': /visualisations\/.*chart.*\.tsx?$/i,
  table: /visualisations\/.*HtmlTable.*\.tsx?$/i,
} as const;
const HEAVY = { mermaid: /node_modules\/mermaid\//, handsontable: /node_modules\/(@handsontable|handsontable)\// } as const;

function readManifest(distDir: string): Manifest | undefined {
  const file = path.join(distDir, '.vite', 'manifest.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest) : undefined;
}

function staticClosure(manifest: Manifest, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key) || manifest[key] === undefined) continue;
    seen.add(key);
    stack.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

/**
 * Every chunk reachable from the roots through static and dynamic imports, not going through the
 * first route's chunks (their dynamic imports are the app's other routes, not the page's).
 */
function reachable(manifest: Manifest, roots: readonly string[], firstRoute: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key) || manifest[key] === undefined) continue;
    seen.add(key);
    if (firstRoute.has(key)) continue;
    stack.push(...(manifest[key].imports ?? []), ...(manifest[key].dynamicImports ?? []));
  }
  return seen;
}

function sourcesOf(distDir: string, file: string): string[] {
  const map = path.join(distDir, `${file}.map`);
  if (!fs.existsSync(map)) return [];
  const sources = (JSON.parse(fs.readFileSync(map, 'utf8')) as { sources?: string[] }).sources ?? [];
  return sources.map((s) => s.replaceAll('\\', '/'));
}

export type RendererCost = { renderer: string; chunks: number; gzip: number; mermaid: boolean; handsontable: boolean };

export function datasetPageReport(distDir: string): { rows: RendererCost[]; lazyMermaid: number; lazyHandsontable: number } | string {
  const manifest = readManifest(distDir);
  if (manifest === undefined) return 'no .vite/manifest.json (build.manifest is off)';
  const keys = Object.keys(manifest);
  const entry = keys.find((k) => manifest[k]!.isEntry === true);
  const page = keys.find((k) => manifest[k]!.src === DATASET_PAGE);
  if (entry === undefined || page === undefined) return `no chunk for ${page === undefined ? DATASET_PAGE : 'the entry'} in the manifest`;
  const firstRoute = staticClosure(manifest, [entry, ...(manifest[SHELL_ROUTES] === undefined ? [] : [SHELL_ROUTES])]);
  const pageChunks = staticClosure(manifest, [page]);
  const lazyFromPage = [...reachable(manifest, [page], firstRoute)].filter((k) => !pageChunks.has(k));
  const sources = new Map(keys.map((k) => [k, sourcesOf(distDir, manifest[k]!.file)]));
  const carries = (k: string, pattern: RegExp) => (sources.get(k) ?? []).some((s) => pattern.test(s));

  const rows = Object.entries(RENDERERS).map(([renderer, pattern]) => {
    // The renderer's own chunk (a dynamic entry of a module under visualisations/) and its static
    // imports; none when the renderer is bundled into the page's chunk.
    const own = lazyFromPage.filter((k) => manifest[k]!.isDynamicEntry === true && (manifest[k]!.src ?? '').startsWith(RENDERERS_DIR) && pattern.test(manifest[k]!.src ?? ''));
    const loaded = new Set([...pageChunks, ...staticClosure(manifest, own)]);
    const added = [...loaded].filter((k) => !firstRoute.has(k) && manifest[k]!.file.endsWith('.js'));
    const gzip = added.reduce((sum, k) => sum + gzipSync(fs.readFileSync(path.join(distDir, manifest[k]!.file)), { level: 9 }).length, 0);
    return { renderer, chunks: added.length, gzip, mermaid: added.some((k) => carries(k, HEAVY.mermaid)), handsontable: added.some((k) => carries(k, HEAVY.handsontable)) };
  });
  return {
    rows,
    lazyMermaid: lazyFromPage.filter((k) => carries(k, HEAVY.mermaid)).length,
    lazyHandsontable: lazyFromPage.filter((k) => carries(k, HEAVY.handsontable)).length,
  };
}

export function printDatasetPageReport(distDir: string): void {
  const report = datasetPageReport(distDir);
  console.log('Dataset page JS beyond the first route and the route table, per visualisation (gzip -9):');
  if (typeof report === 'string') {
    console.log(`  not measured: ${report}`);
    return;
  }
  console.log(`  ${'dataset'.padEnd(10)} ${'chunks'.padStart(6)} ${'gzip'.padStart(10)}  mermaid  handsontable`);
  for (const row of report.rows) {
    console.log(`  ${row.renderer.padEnd(10)} ${String(row.chunks).padStart(6)} ${kb(row.gzip).padStart(10)}  ${(row.mermaid ? 'LOADED' : 'no').padEnd(7)}  ${row.handsontable ? 'LOADED' : 'no'}`);
  }
  console.log(`  reachable from the page only by dynamic import: ${String(report.lazyMermaid)} mermaid chunks, ${String(report.lazyHandsontable)} handsontable chunks`);
}
