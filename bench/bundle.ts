import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { WireReport, WireResponse } from './firstRouteWire';

/** Issue 21: the first route, signed out, as Chromium receives it (headers included), brotli. */
const FIRST_ROUTE_WIRE_TARGET_KB = 150;

/** Issue 39: the member's feed with its Large cards, JS + CSS, brotli, on the wire (headers included). */
export const MEMBER_FEED_WIRE_TARGET_KB = 200;

/** The code a page loads (the target is about code: the API's reads and the pictures are apart). */
const isCode = (r: WireResponse) => r.type === 'Script' || r.type === 'Stylesheet' || /\.(?:js|css)$/.test(r.path);

function firstRouteAssets(distDir: string): string[] {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  return [...new Set(refs)].map((ref) => path.join(distDir, ref.replace(/^\//, '')));
}

/** The build's own brotli copy (scripts/precompressAssets.ts) when there is one, else computed at the same level. */
function brotliSize(file: string, raw: Buffer): number {
  if (fs.existsSync(`${file}.br`)) return fs.statSync(`${file}.br`).size;
  return brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY } }).length;
}

/** What index.html loads eagerly, from the files: raw, gzip -9 and brotli 11 bodies. */
function bundleReport(distDir: string) {
  const files = firstRouteAssets(distDir);
  const rows = files.map((file) => {
    const raw = fs.readFileSync(file);
    return { file: path.relative(distDir, file), kind: path.extname(file).slice(1), raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length, br: brotliSize(file, raw) };
  });
  const total = { gzip: rows.reduce((sum, r) => sum + r.gzip, 0), br: rows.reduce((sum, r) => sum + r.br, 0) };
  const lazy = fs.readdirSync(path.join(distDir, 'assets')).filter((f) => f.endsWith('.js')).length - rows.filter((r) => r.kind === 'js').length;
  return { rows, total, lazy };
}

/**
 * The first route measured in Chromium through our real server (bench/firstRouteWire.ts), run as a
 * child so this report stays synchronous; the error's text when it cannot run.
 */
function wireReport(distDir: string, script = 'firstRouteWire.ts'): WireReport | string {
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script), distDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
    return JSON.parse(out.trim().split('\n').pop() ?? '') as WireReport;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    return `${(error as Error).message.split('\n')[0] ?? 'failed'}${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' / ')}` : ''}`;
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function printBundleReport(distDir: string): void {
  const bundle = bundleReport(distDir);
  console.log('First route (index.html and what it loads eagerly), bodies from the files:');
  for (const row of bundle.rows) console.log(`  ${row.kind.padEnd(3)} ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} raw ${kb(row.gzip).padStart(10)} gzip ${kb(row.br).padStart(10)} br`);
  console.log(`  total ${kb(bundle.total.gzip)} gzip, ${kb(bundle.total.br)} brotli; ${bundle.lazy} more chunks load lazily`);

  const wire = wireReport(distDir);
  console.log('First route on the wire: Chromium, empty cache, our server, `/` signed out until the login view is up and the network idle:');
  if (typeof wire === 'string') {
    console.log(`  not measured: ${wire}`);
    return;
  }
  for (const r of wire.responses) console.log(`  ${String(r.status)} ${r.path.padEnd(48)} ${r.encoding.padEnd(8)} ${kb(r.body).padStart(10)} body ${kb(r.transfer).padStart(10)} on the wire`);
  const met = wire.transfer <= FIRST_ROUTE_WIRE_TARGET_KB * 1024;
  console.log(
    `  total ${kb(wire.transfer)} on the wire (${kb(wire.body)} bodies, ${String(wire.responses.length)} responses; Accept-Encoding: ${wire.acceptEncoding}); target ≤ ${FIRST_ROUTE_WIRE_TARGET_KB} KB: ${met ? 'met' : 'NOT met'}`,
  );
  printMemberFeedReport(distDir);
}

/** Issue 39: the demo member's feed with its Large cards (bench/memberFeedWire.ts), JS + CSS on the wire, the largest files listed. */
function printMemberFeedReport(distDir: string): void {
  const wire = wireReport(distDir, 'memberFeedWire.ts');
  console.log("A member's first page on the wire: Chromium, empty cache, our server, the demo member signed in, the feed until its Large cards in view have drawn (a chart among them) and the network idle:");
  if (typeof wire === 'string') {
    console.log(`  not measured: ${wire}`);
    return;
  }
  const code = wire.responses.filter(isCode).sort((a, b) => b.transfer - a.transfer);
  const transfer = code.reduce((sum, r) => sum + r.transfer, 0);
  for (const r of code.slice(0, 15)) console.log(`  ${String(r.status)} ${r.path.padEnd(48)} ${r.encoding.padEnd(8)} ${kb(r.transfer).padStart(10)} on the wire`);
  if (code.length > 15) console.log(`  … and ${String(code.length - 15)} smaller files, ${kb(code.slice(15).reduce((sum, r) => sum + r.transfer, 0))}`);
  const met = transfer <= MEMBER_FEED_WIRE_TARGET_KB * 1024;
  console.log(
    `  JS + CSS ${kb(transfer)} on the wire in ${String(code.length)} files (everything: ${kb(wire.transfer)} in ${String(wire.responses.length)} responses; Accept-Encoding: ${wire.acceptEncoding}); target ≤ ${MEMBER_FEED_WIRE_TARGET_KB} KB: ${met ? 'met' : 'NOT met'}`,
  );
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
const RENDERERS_DIR = 'src/ui/components/visualisation/';
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

type RendererCost = { renderer: string; chunks: number; gzip: number; mermaid: boolean; handsontable: boolean };

function datasetPageReport(distDir: string): { rows: RendererCost[]; lazyMermaid: number; lazyHandsontable: number } | string {
  const manifest = readManifest(distDir);
  if (manifest === undefined) return 'no .vite/manifest.json (build.manifest is off)';
  const keys = Object.keys(manifest);
  const entry = keys.find((k) => manifest[k]!.isEntry === true);
  const page = keys.find((k) => manifest[k]!.src === DATASET_PAGE);
  if (entry === undefined || page === undefined) return `no chunk for ${page === undefined ? DATASET_PAGE : 'the entry'} in the manifest`;
  const firstRoute = staticClosure(manifest, manifest[SHELL_ROUTES] === undefined ? [entry] : [entry, SHELL_ROUTES]);
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
  console.log("Dataset page JS beyond the first route and the route table (the page's machines included), per visualisation (gzip -9):");
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
