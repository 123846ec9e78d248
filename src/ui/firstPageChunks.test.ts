// A member's first page loads the feed's code and no more (issue 39, item 4). The app is built
// with the real vite.config.ts (not written out), and from the bundler's own output (each chunk's
// modules, static and dynamic imports) the chunks the feed needs before it can show its text are
// computed: the entry's, the session's, the shell's and the feed page's static imports. No module
// of the Lab, and no heavy renderer, may be among them; the chart renderer must stay reachable
// from the feed, through a dynamic import only (it loads when a Large card is in view).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build, type Rolldown } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The modules whose dynamic chunks the feed's first render waits for: the session, the signed-in shell, the feed page. */
const FIRST_PAGE_ROUTES = ['src/ui/auth/Auth0Session.tsx', 'src/ui/shell/AppRoutes.tsx', 'src/ui/pages/datasets/FeedPage.tsx'];

/** What the feed's first page must not carry: the Lab's pages and editor machines, the table-namespace rules, heavy renderers. */
const NOT_ON_THE_FEED: Record<string, RegExp> = {
  'the Lab pages': /\/src\/ui\/pages\/lab\//,
  'the dataset editor machine': /\/src\/machines\/datasetEditor\//,
  'the dashboard editor machine': /\/src\/machines\/dashboardEditor\//,
  'the pipeline form machine': /\/src\/machines\/pipelineForm\//,
  'the log stream machine': /\/src\/machines\/logStream\//,
  'the store browser machine': /\/src\/machines\/storeBrowser\//,
  'the table-namespace rules': /\/src\/domain\/tableNamespace\.ts$/,
  'cron schedules (croner)': /\/node_modules\/croner\//,
  'chart.js': /\/node_modules\/chart\.js\//,
  handsontable: /\/node_modules\/(?:@handsontable|handsontable)\//,
  mermaid: /\/node_modules\/mermaid\//,
};

type Chunk = Rolldown.OutputChunk;
let chunks: Map<string, Chunk>;

beforeAll(async () => {
  // precompressAssets compresses what is in outDir after the build: nothing here, as nothing is written
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-page-chunks-'));
  try {
    const output = await build({
      root: ROOT,
      configFile: path.join(ROOT, 'vite.config.ts'),
      logLevel: 'silent',
      build: { write: false, sourcemap: false, minify: false, outDir, emptyOutDir: false },
    });
    const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
    chunks = new Map(outputs.flatMap((o) => o.output).filter((f): f is Chunk => f.type === 'chunk').map((c) => [c.fileName, c]));
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}, 300_000);

const normal = (id: string) => id.replaceAll('\\', '/');
/** The chunk that holds `module`: its own, or the route chunk it was grouped into (scripts/routeChunks.ts). */
const chunkOf = (module: string): Chunk => {
  const found = [...chunks.values()].filter((c) => c.moduleIds.some((id) => normal(id).endsWith(`/${module}`)));
  if (found.length !== 1) throw new Error(`${String(found.length)} chunks hold ${module}`);
  return found[0]!;
};
function closure(roots: readonly Chunk[], follow: (c: Chunk) => readonly string[]): Set<Chunk> {
  const seen = new Set<Chunk>();
  const stack = [...roots];
  for (let chunk = stack.pop(); chunk !== undefined; chunk = stack.pop()) {
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    stack.push(...follow(chunk).map((file) => chunks.get(file)!));
  }
  return seen;
}
const modulesOf = (set: Set<Chunk>) => [...set].flatMap((c) => c.moduleIds.map(normal));

describe("a member's first page (the feed)", () => {
  it('loads no Lab module and no heavy renderer before its text is shown', () => {
    const entry = [...chunks.values()].filter((c) => c.isEntry);
    const firstPage = closure([...entry, ...FIRST_PAGE_ROUTES.map(chunkOf)], (c) => c.imports);
    const modules = modulesOf(firstPage);
    const everything = modulesOf(new Set(chunks.values()));
    for (const [what, pattern] of Object.entries(NOT_ON_THE_FEED)) {
      // a pattern that matches nothing in the build would keep this test green whatever happens
      expect(everything.some((m) => pattern.test(m)), `${what} is somewhere in the build`).toBe(true);
      expect(modules.filter((m) => pattern.test(m)), `${what} in the feed's first chunks`).toEqual([]);
    }
    // the feed's own machine is there, so the set is the feed's
    expect(modules.some((m) => m.endsWith('/src/machines/feed/feed.machine.ts'))).toBe(true);
  });

  it('comes in chunks that never import one another in a circle', () => {
    // A chunk that imports one which imports it back runs its modules before their imports are
    // ready: the route chunks (scripts/routeChunks.ts) must never make one. Found by depth-first
    // search over every chunk's static imports.
    const state = new Map<Chunk, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (chunk: Chunk, path: Chunk[]) => {
      state.set(chunk, 'open');
      for (const file of chunk.imports) {
        const next = chunks.get(file)!;
        if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), chunk, next].map((c) => c.fileName).join(' -> '));
        else if (!state.has(next)) visit(next, [...path, chunk]);
      }
      state.set(chunk, 'done');
    };
    for (const chunk of chunks.values()) if (!state.has(chunk)) visit(chunk, []);
    expect(circles).toEqual([]);
  });

  it('reaches the chart renderer only through a dynamic import, once a card draws', () => {
    const feed = closure([chunkOf('src/ui/pages/datasets/FeedPage.tsx')], (c) => [...c.imports, ...c.dynamicImports]);
    expect(modulesOf(feed).some((m) => NOT_ON_THE_FEED['chart.js']!.test(m))).toBe(true);
  });
});
