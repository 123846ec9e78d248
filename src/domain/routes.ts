import { encodeSegment, encodeText, isDotSegment, pathOnly, safeDecode } from './paths';

// The one route table of the SPA (spec 000 §2, spec 001 §2, spec 002 §2). The router's <Route path>
// patterns, every link, every redirect and the reading of the current location all come from here,
// so a path is written once and a link can never point at a route that does not exist.
//
// Patterns use React Router's syntax: ':name' is one segment, a trailing '*' the rest of the path
// (named by `splat`). `values` restricts a segment to the spec's words; `query` lists the query
// parameters the spec gives the route.

export const SETUP_STEPS = ['w', 'imports', 'tasks'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export const LIBRARY_TYPES = ['lists', 'channels'] as const;
export type LibraryType = (typeof LIBRARY_TYPES)[number];

type RouteDef = {
  readonly pattern: string;
  readonly query?: readonly string[];
  readonly splat?: string;
  readonly values?: Readonly<Record<string, readonly string[]>>;
};

export const ROUTES = {
  // Shell (spec 000 §2.2)
  root: { pattern: '/' },
  debug: { pattern: '/debug' },
  debugProfile: { pattern: '/debug/profile' },
  logout: { pattern: '/logout' },
  signup: { pattern: '/signup' },
  notVerified: { pattern: '/notverified' },
  // the data-source popup (spec 001 §2): opened with ?state, returned to with ?code&state or ?error
  oauth: { pattern: '/oauth', query: ['code', 'state', 'error', 'error_description'] },
  profile: { pattern: '/p/profile' },
  changePassword: { pattern: '/change-password' },
  apiKeys: { pattern: '/api-key' },
  setupNewWorkspace: { pattern: '/setup/w/new' },
  setup: { pattern: '/setup/:step/:workspaceId', values: { step: SETUP_STEPS } },
  newWorkspace: { pattern: '/w/new' },
  workspaceSettings: { pattern: '/w/:workspaceId' },
  datasetShortcut: { pattern: '/dataset/*', splat: 'idOrAlias' },

  // App area (spec 000 §2.2, spec 002 §2)
  workspaceLanding: { pattern: '/l/:workspaceId' },
  feed: { pattern: '/l/:workspaceId/feed', query: ['search'] },
  news: { pattern: '/l/:workspaceId/news', query: ['q'] },
  explore: { pattern: '/l/:workspaceId/explore', query: ['search'] },
  dataset: { pattern: '/l/:workspaceId/dataset/*', splat: 'idOrAlias' },
  // ?search=in:{channel} selects a channel (spec 002 Channels)
  channels: { pattern: '/l/:workspaceId/channels', query: ['search'] },
  starred: { pattern: '/l/:workspaceId/starred' },
  library: { pattern: '/l/:workspaceId/library' },
  libraryType: { pattern: '/l/:workspaceId/library/:type', values: { type: LIBRARY_TYPES } },
  libraryChannel: { pattern: '/l/:workspaceId/library/:type/:channelId', values: { type: LIBRARY_TYPES } },
  dashboard: { pattern: '/l/:workspaceId/dashboard' },
  help: { pattern: '/l/:workspaceId/help' },
  invitations: { pattern: '/l/:workspaceId/invitations' },
  // The workspace's people (issue 20; the spec names the members call, not a page)
  members: { pattern: '/l/:workspaceId/members' },
  notifications: { pattern: '/l/:workspaceId/notifications' },
  setupTasks: { pattern: '/l/:workspaceId/setupTasks' },
  // Where a newly created workspace goes (spec 001 §2, workspace create).
  newData: { pattern: '/l/:workspaceId/data/new' },

  // Lab (spec 001 §2)
  lab: { pattern: '/lab' },
  // ?pipeline&job open that run's log (the dataset page's freshness links to it)
  pipelines: { pattern: '/lab/:workspaceId/pipelines', query: ['pipeline', 'job'] },
  newPipeline: { pattern: '/lab/:workspaceId/pipelines/new', query: ['dataplugin', 'validate'] },
  pipeline: { pattern: '/lab/:workspaceId/pipelines/:pipelineId', query: ['dataplugin', 'validate'] },
  datastores: { pattern: '/lab/:workspaceId/datastores' },
  newDatastore: { pattern: '/lab/:workspaceId/datastores/new', query: ['dataplugin', 'validate'] },
  // ?table opens one of the store's tables in its browser (issue 38)
  datastore: { pattern: '/lab/:workspaceId/datastores/:datastoreId', query: ['dataplugin', 'validate', 'table'] },
  dataplugins: { pattern: '/lab/:workspaceId/dataplugins', query: ['tab', 'type'] },
  datasources: { pattern: '/lab/:workspaceId/datasources' },
  labChannels: { pattern: '/lab/:workspaceId/channels' },
  // ?edit={datasetId} or ?edit=new opens the dataset editor (the spec names no route of its own);
  // ?edit=new&table={name} starts the new dataset on a store table (issue 38)
  labDatasets: { pattern: '/lab/:workspaceId/datasets', query: ['search', 'edit', 'table'] },
  labSetupTasks: { pattern: '/lab/:workspaceId/setupTasks' },
  labSettings: { pattern: '/lab/:workspaceId/settings' },
  project: { pattern: '/lab/:workspaceId/project' },
  labHelp: { pattern: '/lab/:workspaceId/help' },
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof ROUTES;
type DefOf<N extends RouteName> = (typeof ROUTES)[N];

type SegmentName<S extends string> = S extends `:${infer Name}` ? Name : never;
type SegmentNames<P extends string> = P extends `${infer Head}/${infer Tail}` ? SegmentName<Head> | SegmentNames<Tail> : SegmentName<P>;
type SplatName<D> = D extends { readonly splat: infer S extends string } ? S : never;
type ParamValue<D, K> = D extends { readonly values: infer V } ? (K extends keyof V ? (V[K] extends readonly (infer U)[] ? U : string) : string) : string;
type QueryNames<D> = D extends { readonly query: readonly (infer Q extends string)[] } ? Q : never;

export type RouteParams<N extends RouteName> = { readonly [K in SegmentNames<DefOf<N>['pattern']> | SplatName<DefOf<N>>]: ParamValue<DefOf<N>, K> };
export type RouteQuery<N extends RouteName> = { readonly [K in QueryNames<DefOf<N>>]?: string | undefined };

type BuildArgs<N extends RouteName> = [keyof RouteParams<N>] extends [never]
  ? [params?: RouteParams<N>, query?: RouteQuery<N>]
  : [params: RouteParams<N>, query?: RouteQuery<N>];

/** A location read back: which route, its decoded params and the spec's query parameters present. */
export type RouteMatch = { [N in RouteName]: { readonly name: N; readonly params: RouteParams<N>; readonly query: RouteQuery<N> } }[RouteName];

/** A route's entry, seen without its literal types (for code that walks the whole table). */
export function routeDefinition(name: RouteName): RouteDef {
  return ROUTES[name];
}

/** React Router's <Route path> of a route. */
export function routePattern(name: RouteName): string {
  return ROUTES[name].pattern;
}

/**
 * The path of a route. Each segment is encoded; a splat keeps its slashes, with empty and dot
 * parts dropped because a URL cannot carry them. Query parameters follow in the table's order.
 *
 * An empty, '.' or '..' segment value cannot be carried by any URL: the browser would resolve it
 * and land on some other route, possibly of another workspace. No real id looks like that, so
 * such a link goes to '/' (the landing) rather than somewhere wrong, and never throws.
 */
export function pathTo<N extends RouteName>(name: N, ...[params, query]: BuildArgs<N>): string {
  const def: RouteDef = ROUTES[name];
  const values = (params ?? {}) as Readonly<Record<string, string>>;
  const parts: string[] = [];
  for (const segment of def.pattern.split('/')) {
    if (segment === '*') parts.push(splatPath(values[def.splat ?? ''] ?? ''));
    else if (!segment.startsWith(':')) parts.push(segment);
    else {
      const value = values[segment.slice(1)] ?? '';
      if (!isRepresentableSegment(value)) return ROUTES.root.pattern;
      parts.push(encodeSegment(value));
    }
  }
  return parts.join('/') + queryText(def, query ?? {});
}

/** Whether one path segment can carry the value: a URL drops empty segments' meaning and resolves dots. */
export function isRepresentableSegment(value: string): boolean {
  return value !== '' && !isDotSegment(value);
}

/** The path form of a value that may hold slashes (a dataset alias): each part encoded. */
export function splatPath(value: string): string {
  return splatParts(value).map(encodeSegment).join('/');
}

/** The parts of a slash-holding value that a URL can carry: empty and dot parts are dropped. */
export function splatParts(value: string): string[] {
  return value.split('/').filter((part) => part !== '' && !isDotSegment(part));
}

function queryText(def: RouteDef, query: Readonly<Record<string, string | undefined>>): string {
  const pairs = (def.query ?? []).flatMap((key) => {
    const value = query[key];
    return value === undefined ? [] : [`${key}=${encodeText(value)}`];
  });
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

type Compiled = { readonly name: RouteName; readonly def: RouteDef; readonly segments: readonly string[]; readonly rank: number };

// Static segments outrank parameters and parameters outrank a splat, as in React Router, so
// /w/new is never read as the settings of a workspace called 'new'.
const COMPILED: readonly Compiled[] = (Object.keys(ROUTES) as RouteName[])
  .map((name) => {
    const def: RouteDef = ROUTES[name];
    const segments = def.pattern.split('/').filter((segment) => segment !== '');
    const rank = segments.reduce((sum, segment) => sum + (segment === '*' ? 1 : segment.startsWith(':') ? 3 : 10), 0);
    return { name, def, segments, rank };
  })
  .sort((a, b) => b.rank - a.rank);

/**
 * The route a location names, compared the way the router and the browser see it: decoded, dot
 * segments resolved, empty segments ignored, fixed words case-insensitive. Unknown paths give
 * undefined; this never throws.
 */
export function parseRoute(location: string): RouteMatch | undefined {
  const segments = routeSegments(location);
  for (const route of COMPILED) {
    const params = matchSegments(route, segments);
    if (params) return { name: route.name, params, query: readQuery(route.def, location) } as RouteMatch;
  }
  return undefined;
}

/**
 * The decoded segments of a location as the router sees them after the browser resolved it: dot
 * segments resolved (never above the root), trailing slashes ignored, an empty segment in the
 * middle kept (it matches no parameter, as in React Router).
 */
export function routeSegments(location: string): string[] {
  const segments: string[] = [];
  const path = pathOnly(location);
  for (const raw of (path.startsWith('/') ? path.slice(1) : path).split('/')) {
    const segment = safeDecode(raw);
    if (segment === '..') segments.pop();
    else if (segment !== '.') segments.push(segment);
  }
  while (segments.at(-1) === '') segments.pop();
  return segments;
}

function matchSegments(route: Compiled, segments: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const [index, segment] of route.segments.entries()) {
    if (segment === '*') {
      params[route.def.splat ?? '*'] = segments.slice(index).join('/');
      return params;
    }
    const actual = segments[index];
    if (actual === undefined) return undefined;
    if (segment.startsWith(':')) {
      if (actual === '') return undefined;
      const key = segment.slice(1);
      const allowed = route.def.values?.[key];
      if (allowed && !allowed.includes(actual)) return undefined;
      params[key] = actual;
    } else if (segment.toLowerCase() !== actual.toLowerCase()) return undefined;
  }
  return segments.length === route.segments.length ? params : undefined;
}

function readQuery(def: RouteDef, location: string): Record<string, string> {
  const query: Record<string, string> = {};
  const start = location.indexOf('?');
  if (start === -1 || !def.query) return query;
  const hash = location.indexOf('#', start);
  const text = location.slice(start + 1, hash === -1 ? undefined : hash);
  for (const pair of text.split('&')) {
    const cut = pair.indexOf('=');
    const key = safeDecode(cut === -1 ? pair : pair.slice(0, cut));
    // The first value wins, as URLSearchParams.get does.
    if (def.query.includes(key) && !(key in query)) query[key] = safeDecode(cut === -1 ? '' : pair.slice(cut + 1));
  }
  return query;
}

type Area = 'app' | 'lab';

const AREA_ROOTS: Readonly<Record<Area, string>> = { app: 'l', lab: 'lab' };

/**
 * The area and workspace of a location under /l/{id}/… or /lab/{id}/…, whether or not the rest
 * names a page (an unknown page still belongs to its workspace: the shell shows it around the
 * not-found page).
 */
export function areaOf(location: string): { readonly area: Area; readonly workspaceId: string } | undefined {
  const [root, workspaceId] = routeSegments(location);
  if (root === undefined || workspaceId === undefined || workspaceId === '') return undefined;
  const area = (Object.keys(AREA_ROOTS) as Area[]).find((candidate) => AREA_ROOTS[candidate] === root.toLowerCase());
  return area === undefined ? undefined : { area, workspaceId };
}

/** The workspace a location names: a route's workspaceId param, else the /l or /lab area it is in. */
export function workspaceIdOf(location: string): string | undefined {
  const match = parseRoute(location);
  if (match && 'workspaceId' in match.params) return match.params.workspaceId;
  return areaOf(location)?.workspaceId;
}

/** Whether a location is in the Lab: /lab itself or anything under /lab/{id}. */
export function isLabLocation(location: string): boolean {
  return parseRoute(location)?.name === 'lab' || areaOf(location)?.area === 'lab';
}

/**
 * A path the workspace configures relative to an area (HOME_PAGE, APP_MENU_ITEMS entries):
 * /l/{id}/{relative} or /lab/{id}/{relative}. The relative text is URL text (the menu rules check
 * it) and keeps its query; empty and dot parts are dropped so it cannot climb out of the workspace.
 */
export function areaPath(area: Area, workspaceId: string, relative: string): string {
  const cut = relative.search(/[?#]/);
  const path = cut === -1 ? relative : relative.slice(0, cut);
  const tail = cut === -1 ? '' : relative.slice(cut);
  const parts = path.split('/').filter((part) => isRepresentableSegment(safeDecode(part)));
  return `/${AREA_ROOTS[area]}/${encodeSegment(workspaceId)}${parts.map((part) => `/${part}`).join('')}${tail}`;
}

/**
 * Where "Back to the Lab" leads from a page of the app opened from the Lab (the notifications'
 * bell): the Lab location it was opened from, carried in the navigation's state. Anything else —
 * a state another page left, a location outside the Lab, one that climbs or leaves the origin — is
 * none, so the link never leads anywhere the Lab did not send the person from.
 */
export function labReturnPath(state: unknown): string | null {
  const returnTo = typeof state === 'object' && state !== null ? (state as { labReturnTo?: unknown }).labReturnTo : undefined;
  if (typeof returnTo !== 'string' || !returnTo.startsWith('/lab/') || /[\\\s]|\/\.\.?(\/|$|\?|#)/.test(returnTo)) return null;
  return isLabLocation(returnTo) ? returnTo : null;
}
