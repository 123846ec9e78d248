import path from 'node:path';
import type { Rolldown } from 'vite';

/**
 * Chunks by route rather than by sharing (issue 39). Left to itself the bundler gives every set of
 * lazy pages that share a module a chunk of its own: a member's feed came in some forty files, many
 * under a kilobyte, each with its response headers. A route named here keeps in one chunk the
 * modules its files import statically, directly or not:
 *
 * - `feed`: the feed page's code (its machine, queries, domain rules);
 * - `visualisation`: what a card loads to draw, the chart and metric renderers' code included (not
 *   chart.js, which the History chart uses without the rest).
 *
 * Earlier names win: a module both use is the feed's. A page elsewhere that shares a module with a
 * route loads that route's chunk.
 *
 * Only a module whose every import lands in a chunk that never imports back may join: the entry's
 * chunks (vendor, app, loaded before anything lazy), `leave`'s (Fluent's core), this route's or an
 * earlier route's. A module that imports a Fluent component stays where the bundler puts it: the
 * views import components through @fluentui/react-components (and icons through
 * @fluentui/react-icons), which re-export everything, so the module graph does not say which
 * component lands in which chunk, and a route chunk importing a chunk that imports it back would
 * run its modules out of order. src/ui/firstPageChunks.test.ts fails on any cycle between chunks.
 */
const ROUTES: readonly (readonly [name: string, files: readonly string[]])[] = [
  ['feed', ['src/ui/pages/datasets/FeedPage.tsx']],
  [
    'visualisation',
    ['src/ui/components/visualisation/Visualisation.tsx', 'src/ui/components/visualisation/ChartJsChart.tsx', 'src/ui/components/visualisation/HtmlMetric.tsx'],
  ],
];

/** Left to the other groups wherever they are imported: chart.js and its colour helper, loaded once a chart draws. */
const OWN_CHUNK = /[\\/]node_modules[\\/](?:chart\.js|@kurkle)[\\/]/;
/** Packages whose index re-exports other modules wholesale: what is used through them is known only after tree-shaking. */
const BARREL = /[\\/]node_modules[\\/]@fluentui[\\/]react-(?:components|icons)[\\/]/;

type ModuleInfo = NonNullable<ReturnType<Rolldown.ChunkingContext['getModuleInfo']>>;
type Info = (id: string) => ModuleInfo | null;

/** Every module the roots import statically, directly or not, themselves included; `stop` modules are not followed. */
function staticClosure(roots: readonly string[], info: Info, stop: (id: string) => boolean = () => false): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    const module = info(id);
    if (module === null) continue;
    seen.add(id);
    if (!stop(id)) stack.push(...module.importedIds);
  }
  return seen;
}

/**
 * A codeSplitting group's `name`: the route chunk a module belongs to, or null for none. Use it
 * with `includeDependenciesRecursively: false` (a module's imports are chosen here) and below the
 * entry's groups: the bundler lets a group named by a function take modules that groups of higher
 * priority chose, so what the entry `entry` loads is never named here.
 */
export function routeChunkName(root: string, entry: string, leave: RegExp): Rolldown.CodeSplittingNameFunction {
  // the graph is the same for every module of one chunking pass; a new pass (a rebuild) has a new context
  const owners = new WeakMap<Rolldown.ChunkingContext, Map<string, string>>();
  return (id, ctx) => {
    let owner = owners.get(ctx);
    if (owner === undefined) {
      owner = assignRoutes(root, entry, leave, (module) => ctx.getModuleInfo(module));
      owners.set(ctx, owner);
    }
    return owner.get(id) ?? null;
  };
}

function assignRoutes(root: string, entry: string, leave: RegExp, info: Info): Map<string, string> {
  const entryId = path.resolve(root, entry);
  if (info(entryId) === null) throw new Error(`routeChunks: the entry ${entry} is not in the build`);
  // everything the entry might load, through the barrels too, and what it surely loads: its own
  // modules and the packages they import other than through a barrel
  const mightBeInitial = staticClosure([entryId], info);
  const initial = staticClosure([entryId], info, (id) => BARREL.test(id));
  for (const id of initial) if (BARREL.test(id)) initial.delete(id);
  const inOtherChunk = (id: string) => OWN_CHUNK.test(id) || leave.test(id);
  const safeDependency = (id: string) => initial.has(id) || (leave.test(id) && !BARREL.test(id));

  const owner = new Map<string, string>();
  for (const [name, files] of ROUTES) {
    const roots = files.map((file) => path.resolve(root, file));
    for (const [index, rootId] of roots.entries()) if (info(rootId) === null) throw new Error(`routeChunks: ${files[index]!} is not in the build`);
    // candidates: what the route imports that no entry chunk, other group or earlier route has
    const candidates = new Set([...staticClosure(roots, info)].filter((id) => !owner.has(id) && !inOtherChunk(id) && !mightBeInitial.has(id)));
    // a candidate stays only if each of its imports is safe, an earlier route's, or a candidate that stays
    for (let changed = true; changed; ) {
      changed = false;
      for (const id of candidates) {
        const imports = info(id)?.importedIds ?? [];
        if (imports.every((dep) => candidates.has(dep) || owner.has(dep) || safeDependency(dep))) continue;
        candidates.delete(id);
        changed = true;
      }
    }
    for (const id of candidates) owner.set(id, name);
  }
  return owner;
}

