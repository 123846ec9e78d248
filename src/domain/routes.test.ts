import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostilePath, hostileString, wellFormed } from './hostile.fixture';
import {
  areaOf,
  areaPath,
  isLabLocation,
  labReturnPath,
  isRepresentableSegment,
  parseRoute,
  pathTo,
  routeDefinition,
  routePattern,
  ROUTES,
  routeSegments,
  splatParts,
  workspaceIdOf,
  type RouteName,
} from './routes';

// Every SPA route the three spec documents name, in their own notation. A route added to the
// spec and missing from the table fails here.
const SPEC_ROUTES = [
  // 000-shell §2.1, §2.2
  '/',
  '/debug',
  '/debug/profile',
  '/logout',
  '/signup',
  '/notverified',
  '/oauth',
  '/p/profile',
  '/change-password',
  '/api-key',
  '/setup/{step}/{workspaceId}',
  '/setup/w/new',
  '/w/{workspaceId}',
  '/l/{workspaceId}',
  '/l/{workspaceId}/feed',
  '/l/{workspaceId}/news',
  '/l/{workspaceId}/explore',
  '/l/{workspaceId}/channels',
  '/l/{workspaceId}/library',
  '/l/{workspaceId}/starred',
  '/l/{workspaceId}/help',
  '/l/{workspaceId}/dashboard',
  '/l/{workspaceId}/invitations',
  '/l/{workspaceId}/notifications',
  '/l/{workspaceId}/setupTasks',
  '/l/{workspaceId}/library/{type}',
  '/l/{workspaceId}/library/{type}/{channelId}',
  '/l/{workspaceId}/dataset/{datasetIdOrAlias}',
  '/dataset/{datasetIdOrAlias}',
  '/lab',
  '/lab/{workspaceId}/dataplugins',
  '/lab/{workspaceId}/datasources',
  '/lab/{workspaceId}/datastores',
  '/lab/{workspaceId}/datastores/new',
  '/lab/{workspaceId}/datastores/{datastoreId}',
  '/lab/{workspaceId}/pipelines',
  '/lab/{workspaceId}/pipelines/new',
  '/lab/{workspaceId}/pipelines/{pipelineId}',
  '/lab/{workspaceId}/channels',
  '/lab/{workspaceId}/datasets',
  '/lab/{workspaceId}/setupTasks',
  '/lab/{workspaceId}/settings',
  '/lab/{workspaceId}/project',
  '/lab/{workspaceId}/help',
  // 001-lab §2: workspace create and settings, after creating a workspace
  '/w/new',
  '/l/{workspaceId}/data/new',
  // issue 20: the members page
  '/l/{workspaceId}/members',
] as const;

// The query parameters the spec documents give a route.
const SPEC_QUERIES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['/l/{workspaceId}/explore', ['search']],
  ['/l/{workspaceId}/feed', ['search']],
  ['/l/{workspaceId}/news', ['q']],
  ['/lab/{workspaceId}/pipelines/new', ['dataplugin', 'validate']],
  ['/lab/{workspaceId}/pipelines/{pipelineId}', ['validate']],
  ['/lab/{workspaceId}/datastores/new', ['dataplugin', 'validate']],
  ['/lab/{workspaceId}/datastores/{datastoreId}', ['validate']],
  ['/lab/{workspaceId}/dataplugins', ['tab', 'type']],
  ['/oauth', ['code', 'state', 'error', 'error_description']],
];

const SAMPLE: Readonly<Record<string, string>> = { step: 'imports', type: 'lists', datasetIdOrAlias: 'sales/by-month' };

/** A spec route with sample values in its placeholders. */
function sample(specRoute: string): string {
  return specRoute.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE[name] ?? `${name}-1`);
}

/** Placeholders made comparable: {x} and :x are one parameter, a slash-holding one is the splat. */
function shape(route: string): string {
  return route.replace('{datasetIdOrAlias}', '*').replace(/\{\w+\}|:\w+/g, '{}');
}

const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

describe('the route table', () => {
  it.each(SPEC_ROUTES)('has the spec route %s', (specRoute) => {
    const match = parseRoute(sample(specRoute));
    expect(match).toBeDefined();
    expect(shape(routePattern(match?.name ?? 'root'))).toBe(shape(specRoute));
  });

  it('has no route the spec does not name', () => {
    const specShapes = new Set(SPEC_ROUTES.map(shape));
    expect(ROUTE_NAMES.map((name) => shape(routePattern(name))).filter((s) => !specShapes.has(s))).toEqual([]);
  });

  it.each(SPEC_QUERIES)('gives %s the query parameters %j', (specRoute, keys) => {
    const match = parseRoute(sample(specRoute));
    const def = routeDefinition(match?.name ?? 'root');
    expect(def.query ?? []).toEqual(expect.arrayContaining([...keys]));
  });
});

describe('pathTo', () => {
  it('writes the spec paths', () => {
    expect(pathTo('root')).toBe('/');
    expect(pathTo('apiKeys')).toBe('/api-key');
    expect(pathTo('lab')).toBe('/lab');
    expect(pathTo('feed', { workspaceId: 'w1' })).toBe('/l/w1/feed');
    expect(pathTo('setup', { step: 'tasks', workspaceId: 'w1' })).toBe('/setup/tasks/w1');
    expect(pathTo('setupNewWorkspace')).toBe('/setup/w/new');
    expect(pathTo('dataset', { workspaceId: 'w1', idOrAlias: 'sales/by-month' })).toBe('/l/w1/dataset/sales/by-month');
    expect(pathTo('libraryChannel', { workspaceId: 'w1', type: 'channels', channelId: 'c 1' })).toBe('/l/w1/library/channels/c%201');
  });

  it('adds the spec query parameters in the table order, encoded', () => {
    expect(pathTo('explore', { workspaceId: 'w1' }, { search: '"tag:x"' })).toBe('/l/w1/explore?search=%22tag%3Ax%22');
    expect(pathTo('newPipeline', { workspaceId: 'w1' }, { validate: 'true', dataplugin: 'p&1' })).toBe('/lab/w1/pipelines/new?dataplugin=p%261&validate=true');
    expect(pathTo('dataplugins', { workspaceId: 'w1' }, { tab: '0', type: 'LOADER' })).toBe('/lab/w1/dataplugins?tab=0&type=LOADER');
    expect(pathTo('feed', { workspaceId: 'w1' }, {})).toBe('/l/w1/feed');
  });

  it('encodes each segment, so a value can never add a segment or a query', () => {
    expect(pathTo('feed', { workspaceId: 'a/b?c#d%' })).toBe('/l/a%2Fb%3Fc%23d%25/feed');
    expect(pathTo('dataset', { workspaceId: 'w1', idOrAlias: 'a b/c?d#e%' })).toBe('/l/w1/dataset/a%20b/c%3Fd%23e%25');
  });

  it('drops the empty and dot parts of a splat, which a URL cannot carry', () => {
    expect(pathTo('dataset', { workspaceId: 'w1', idOrAlias: '/a//b/' })).toBe('/l/w1/dataset/a/b');
    expect(pathTo('dataset', { workspaceId: 'w1', idOrAlias: '../../lab/x' })).toBe('/l/w1/dataset/lab/x');
    expect(pathTo('datasetShortcut', { idOrAlias: 'x/./y' })).toBe('/dataset/x/y');
  });

  it.each(['', '.', '..'])('goes to the landing for the unrepresentable segment value %j', (value) => {
    expect(pathTo('feed', { workspaceId: value })).toBe('/');
    expect(pathTo('pipeline', { workspaceId: 'w1', pipelineId: value }, { validate: 'true' })).toBe('/');
  });
});

describe('parseRoute', () => {
  it.each([
    ['/l/abc/feed', 'feed', { workspaceId: 'abc' }],
    ['/l/abc/feed/', 'feed', { workspaceId: 'abc' }],
    ['/L/abc/FEED', 'feed', { workspaceId: 'abc' }],
    ['l/abc', 'workspaceLanding', { workspaceId: 'abc' }],
    ['/l/a%20b/explore?search=x', 'explore', { workspaceId: 'a b' }],
    ['/l/%E0%A4%A/feed', 'feed', { workspaceId: '%E0%A4%A' }],
    ['/l/abc/dataset/sales/by-month', 'dataset', { workspaceId: 'abc', idOrAlias: 'sales/by-month' }],
    ['/l/abc/dataset', 'dataset', { workspaceId: 'abc', idOrAlias: '' }],
    ['/dataset/a/b', 'datasetShortcut', { idOrAlias: 'a/b' }],
    ['/w/new', 'newWorkspace', {}],
    ['/w/abc', 'workspaceSettings', { workspaceId: 'abc' }],
    ['/setup/w/new', 'setupNewWorkspace', {}],
    ['/setup/tasks/abc', 'setup', { step: 'tasks', workspaceId: 'abc' }],
    ['/lab/abc/pipelines/new', 'newPipeline', { workspaceId: 'abc' }],
    ['/lab/abc/pipelines/p1', 'pipeline', { workspaceId: 'abc', pipelineId: 'p1' }],
    ['/l/abc/library/lists/c1', 'libraryChannel', { workspaceId: 'abc', type: 'lists', channelId: 'c1' }],
    ['/debug/../lab', 'lab', {}],
    ['/%2e%2e/lab', 'lab', {}],
    ['/x/../../l/abc', 'workspaceLanding', { workspaceId: 'abc' }],
    ['/l/./abc', 'workspaceLanding', { workspaceId: 'abc' }],
    ['', 'root', {}],
    ['/?email=a', 'root', {}],
    ['//', 'root', {}],
    ['?x=/l/abc', 'root', {}],
    ['#/l/abc', 'root', {}],
  ] as const)('%s -> %s %j', (location, name, params) => {
    const match = parseRoute(location);
    expect(match?.name).toBe(name);
    expect(match?.params).toEqual(params);
  });

  it.each(['/l', '/l/', '/l//feed', '/l/abc/nothing', '/setup/other/abc', '/setup/w/abc/extra', '/l/abc/library/other', '/p/profile/x', '/debugger', '/debug/x/y', '/l/../x'])(
    '%s names no route',
    (location) => {
      expect(parseRoute(location)).toBeUndefined();
    },
  );

  it('reads only the spec query parameters, decoded, the first value winning', () => {
    expect(parseRoute('/l/w/explore?search=%22a%20b%22&other=1&search=2#frag')?.query).toEqual({ search: '"a b"' });
    expect(parseRoute('/l/w/explore?search=%E0%A4%A')?.query).toEqual({ search: '%E0%A4%A' });
    expect(parseRoute('/l/w/feed?search')?.query).toEqual({ search: '' });
    expect(parseRoute('/l/w/starred?search=x')?.query).toEqual({});
    // the channels page's selection is its search (spec 002 Channels)
    expect(parseRoute('/l/w/channels?search=in%3Asales')?.query).toEqual({ search: 'in:sales' });
    expect(parseRoute('/lab/w/dataplugins?type=LOADER&tab=0')?.query).toEqual({ tab: '0', type: 'LOADER' });
  });

  it('never throws on hostile locations, and never names an empty or dot parameter', () => {
    fc.assert(
      fc.property(hostilePath, (location) => {
        const match = parseRoute(location);
        for (const value of Object.values<string>(match?.params ?? {})) {
          if (match?.name === 'dataset' || match?.name === 'datasetShortcut') continue;
          expect(isRepresentableSegment(value)).toBe(true);
        }
      }),
    );
  });
});

// Arbitrary parameters for a route: representable segment values (no 'new', which the static
// routes beside /w/:id, /pipelines/:id and /setup/w/:id claim), the spec's words where the table
// restricts a segment, any text for a splat.
const segmentValue = hostileString.filter((value) => isRepresentableSegment(value) && value.toLowerCase() !== 'new');

function paramsOf(name: RouteName, segment: fc.Arbitrary<string>) {
  const def = routeDefinition(name);
  const record: Record<string, fc.Arbitrary<string>> = {};
  for (const part of def.pattern.split('/')) {
    if (part === '*') record[def.splat ?? '*'] = hostileString;
    else if (part.startsWith(':')) {
      const key = part.slice(1);
      const allowed = def.values?.[key];
      record[key] = allowed ? fc.constantFrom(...allowed) : segment;
    }
  }
  return fc.record(record);
}

function queryOf(name: RouteName) {
  const def = routeDefinition(name);
  const record: Record<string, fc.Arbitrary<string>> = {};
  for (const key of def.query ?? []) record[key] = hostileString;
  // Each parameter present or absent; an absent one is left out, never undefined.
  return fc.record(record, { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>;
}

/** What the browser hands back: lone surrogates became U+FFFD; a splat lost its empty and dot parts. */
function expectedParams(name: RouteName, params: Record<string, string>): Record<string, string> {
  const def = routeDefinition(name);
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, key === def.splat ? splatParts(wellFormed(value)).join('/') : wellFormed(value)]),
  );
}

// The typed signature is per route; the properties walk all routes through one loose view of it.
const build = pathTo as (name: RouteName, params?: Record<string, string>, query?: Record<string, string>) => string;

describe('pathTo and parseRoute round trip', () => {
  it.each(ROUTE_NAMES)('%s: parse(build(params, query)) gives back the route, its params and its query', (name) => {
    fc.assert(
      fc.property(paramsOf(name, segmentValue), queryOf(name), (params, query) => {
        const match = parseRoute(build(name, params, query));
        expect(match?.name).toBe(name);
        expect(match?.params).toEqual(expectedParams(name, params));
        expect(match?.query).toEqual(Object.fromEntries(Object.entries(query).map(([key, value]) => [key, wellFormed(value)])));
      }),
      { numRuns: 60 },
    );
  });

  it.each(ROUTE_NAMES)('%s: hostile params never throw, never add a query, and never name another workspace', (name) => {
    fc.assert(
      fc.property(paramsOf(name, hostileString), (params) => {
        const path = build(name, params);
        expect(path.startsWith('/')).toBe(true);
        expect(path).not.toMatch(/[?#]/);
        // The URL parser resolves it the way routeSegments does.
        expect(parseRoute(new URL(path, 'http://h').pathname)?.name).toBe(parseRoute(path)?.name);
        const def = routeDefinition(name);
        const segments = Object.entries(params).filter(([key]) => key !== def.splat);
        if (!segments.every(([, value]) => isRepresentableSegment(value))) {
          expect(path).toBe('/');
          return;
        }
        const workspaceId = params['workspaceId'];
        if (workspaceId !== undefined) expect(workspaceIdOf(path)).toBe(wellFormed(workspaceId));
      }),
      { numRuns: 60 },
    );
  });
});

describe('routeSegments', () => {
  it('resolves dot segments like a URL parser, ignores trailing slashes, keeps an empty middle segment', () => {
    expect(routeSegments('/a/./b/../c/')).toEqual(['a', 'c']);
    expect(routeSegments('/../../a')).toEqual(['a']);
    expect(routeSegments('/%2e%2e/a/%2E/b')).toEqual(['a', 'b']);
    expect(routeSegments('/a//b')).toEqual(['a', '', 'b']);
    expect(routeSegments('/a%2Fb/c?x=/d#/e')).toEqual(['a/b', 'c']);
    expect(routeSegments('')).toEqual([]);
  });

  it('agrees with the WHATWG URL parser', () => {
    const segment = fc.oneof(fc.constantFrom('.', '..', '', 'a', 'b', '%2e', '.%2E', '%2e%2e'), fc.stringMatching(/^[a-z0-9-]{1,5}$/));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (parts) => {
        const path = `/${parts.join('/')}`;
        const viaUrl = new URL(`http://h${path}`).pathname.split('/').slice(1).map(decodeURIComponent);
        while (viaUrl.at(-1) === '') viaUrl.pop();
        expect(routeSegments(path)).toEqual(viaUrl);
      }),
    );
  });
});

describe('workspaceIdOf and areaOf', () => {
  it.each([
    ['/l/abc/feed', 'abc'],
    ['/l/abc/nothing/here', 'abc'],
    ['/lab/abc/pipelines', 'abc'],
    ['/lab/abc/unknown', 'abc'],
    ['/w/abc', 'abc'],
    ['/setup/tasks/abc', 'abc'],
    ['/l/abc/dataset/a/b?search=x#y', 'abc'],
  ])('%s -> %s', (location, id) => {
    expect(workspaceIdOf(location)).toBe(id);
  });

  it.each(['/lab', '/l', '/l//x', '/l/../x', '/setup/w/new', '/w/new', '/p/profile', '/dataset/abc', '/', '?x=/l/abc'])('%s -> undefined', (location) => {
    expect(workspaceIdOf(location)).toBeUndefined();
  });

  it('tells the Lab from the app', () => {
    expect(isLabLocation('/lab')).toBe(true);
    expect(isLabLocation('/lab/abc/unknown')).toBe(true);
    expect(isLabLocation('/LAB/abc/pipelines')).toBe(true);
    expect(isLabLocation('/l/abc/feed')).toBe(false);
    expect(isLabLocation('/labx')).toBe(false);
    expect(areaOf('/l/abc/x')).toEqual({ area: 'app', workspaceId: 'abc' });
  });

  it('never throws and never names an empty or dot workspace', () => {
    fc.assert(
      fc.property(hostilePath, (location) => {
        const id = workspaceIdOf(location);
        if (id !== undefined) expect(isRepresentableSegment(id)).toBe(true);
      }),
    );
  });
});

describe('areaPath', () => {
  it('puts a configured relative path under the area of the workspace', () => {
    expect(areaPath('app', 'w 1', 'news')).toBe('/l/w%201/news');
    expect(areaPath('lab', 'w1', '/pipelines')).toBe('/lab/w1/pipelines');
    expect(areaPath('app', 'w1', 'library/lists')).toBe('/l/w1/library/lists');
    expect(areaPath('app', 'w1', 'explore?search=%22x%22')).toBe('/l/w1/explore?search=%22x%22');
  });

  it('stays in the workspace it names', () => {
    fc.assert(
      fc.property(segmentValue, fc.oneof(fc.constantFrom('feed', 'news', 'library/lists', '', '../../lab/x', '%2e%2e/x', '//x', '..?a=/..'), hostileString), (workspaceId, relative) => {
        expect(workspaceIdOf(areaPath('app', workspaceId, relative))).toBe(wellFormed(workspaceId));
      }),
    );
  });
});

describe('labReturnPath', () => {
  it('leads back to the Lab location the app page was opened from', () => {
    expect(labReturnPath({ labReturnTo: '/lab/w1/pipelines' })).toBe('/lab/w1/pipelines');
    expect(labReturnPath({ labReturnTo: '/lab/w1/datastores/s1?table=orders' })).toBe('/lab/w1/datastores/s1?table=orders');
  });

  it('is none for any other state or place', () => {
    for (const state of [undefined, null, 'x', 1, {}, { labReturnTo: 3 }, { labReturnTo: '/l/w1/feed' }, { labReturnTo: 'https://evil.example/lab/w1' }, { labReturnTo: '//evil.example/lab/w1' }, { labReturnTo: '/lab/w1/../../l/w1/feed' }, { labReturnTo: '/lab/w1/\\evil' }, { labReturnTo: '/labx/w1' }]) {
      expect(labReturnPath(state)).toBeNull();
    }
  });

  it('answers only Lab paths, whatever the state holds', () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (any, text) => {
        for (const state of [any, { labReturnTo: text }, { labReturnTo: `/lab/${text}` }]) {
          const path = labReturnPath(state);
          if (path !== null) {
            expect(path.startsWith('/lab/')).toBe(true);
            expect(isLabLocation(path)).toBe(true);
            expect(path).not.toMatch(/\/\.\.?(\/|$)/);
          }
        }
      }),
    );
  });
});

describe('routes, checked by hand: missing values, query edges and the areas', () => {
  it('goes to the landing when a segment value is missing, and writes an empty splat as nothing', () => {
    // the typed signature requires them; a caller past the types still gets no wrong link
    expect(build('feed', {})).toBe('/');
    expect(build('pipeline', { workspaceId: 'w1' })).toBe('/');
    expect(build('dataset', { workspaceId: 'w1' })).toBe('/l/w1/dataset/');
    expect(build('datasetShortcut', {})).toBe('/dataset/');
  });

  it('reads no query from a path without a question mark, even with & and = in a segment', () => {
    const match = parseRoute('/l/a&search=x/explore');
    expect(match).toEqual({ name: 'explore', params: { workspaceId: 'a&search=x' }, query: {} });
    expect(parseRoute('/lab/w&tab=1/dataplugins#type=LOADER')).toEqual({ name: 'dataplugins', params: { workspaceId: 'w&tab=1' }, query: {} });
  });

  it('ends the query at the fragment', () => {
    expect(parseRoute('/l/w/explore?search=a#b')?.query).toEqual({ search: 'a' });
    expect(parseRoute('/lab/w/dataplugins?tab=1#&type=LOADER')?.query).toEqual({ tab: '1' });
  });

  it('names an area only with a workspace in it', () => {
    expect(areaOf('')).toBeUndefined();
    expect(areaOf('/')).toBeUndefined();
    expect(areaOf('/l')).toBeUndefined();
    expect(areaOf('/lab')).toBeUndefined();
    expect(areaOf('/lab/')).toBeUndefined();
    expect(areaOf('/l//feed')).toBeUndefined();
    expect(areaOf('/lab/w1')).toEqual({ area: 'lab', workspaceId: 'w1' });
    expect(areaOf('/LAB/w1/x')).toEqual({ area: 'lab', workspaceId: 'w1' });
    expect(areaOf('/w/w1')).toBeUndefined();
  });

  it('leads back only to an absolute, lower-case /lab/ path with no dot segment', () => {
    for (const labReturnTo of ['lab/w1/pipelines', '/LAB/w1/pipelines', '/lab/w1/./pipelines', '/lab/w1/.', '/lab/w1/..', '/lab/w1/pipelines/..', '/lab/w1/..?x', '/lab/w1/.#x']) {
      expect(labReturnPath({ labReturnTo })).toBeNull();
    }
  });

  it('keeps a Lab path with a doubled slash after /lab/, which stays in the Lab', () => {
    expect(labReturnPath({ labReturnTo: '/lab/w1/pipelines//' })).toBe('/lab/w1/pipelines//');
    expect(labReturnPath({ labReturnTo: '/lab/w1//pipelines' })).toBe('/lab/w1//pipelines');
  });
});
