import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { DataPlugin } from '../../domain/resources';
import { modelPaths, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ModelStep, ReplayLog } from '../testing';
import { dataPluginsActors } from './dataPlugins.actors';
import { dataPluginsMachine, type DataPluginsContext } from './dataPlugins.machine';

const API = 'http://api.test/api';
const WORKSPACE = {
  id: 'w1',
  _links: { dataplugins: { href: `${API}/workspaces/w1/dataplugins` }, availabledataplugins: { href: `${API}/workspaces/w1/availabledataplugins` } },
};
const href = (id: string) => `${API}/workspaces/w1/dataplugins/${id}`;
const AVAILABLE: DataPlugin = { id: 'extractors/tap-github--meltanolabs', name: 'tap-github', label: 'GitHub', pluginType: 'EXTRACTOR', canDelete: false, _links: { self: { href: href('extractors/tap-github--meltanolabs') }, 'add dataplugin': { href: href('extractors/tap-github--meltanolabs') } } };
const REMOVABLE: DataPlugin = { id: 'extractors/tap-csv--meltanolabs', name: 'tap-csv', label: 'CSV', pluginType: 'EXTRACTOR', canDelete: true, _links: { self: { href: href('extractors/tap-csv--meltanolabs') }, 'delete dataplugin': { href: href('extractors/tap-csv--meltanolabs') } } };
const BUILTIN: DataPlugin = { id: 'extractors/tap-demo--builtin', name: 'tap-demo', label: 'Demo data', pluginType: 'EXTRACTOR', canDelete: false, _links: { self: { href: href('extractors/tap-demo--builtin') } } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.loadPlugins': [{ output: { items: [AVAILABLE, REMOVABLE, BUILTIN], totalElements: 23, totalPages: 2 } }],
  'xstate.error.actor.loadPlugins': [{ error: offline }],
  'user.search': [{ search: 'git' }],
  'user.page': [{ page: 1 }, { page: 0 }, { page: 7 }, { page: -1 }],
  // Only GitHub may be installed and only CSV removed: the built-in offers neither.
  'user.install': [{ id: AVAILABLE.id }, { id: BUILTIN.id }, { id: REMOVABLE.id }],
  'user.delete': [{ id: REMOVABLE.id }, { id: BUILTIN.id }, { id: 'ghost' }],
  'xstate.done.actor.installPlugin': [{ output: undefined }],
  'xstate.error.actor.installPlugin': [{ error: offline }],
  'xstate.done.actor.deletePlugin': [{ output: undefined }],
  'xstate.error.actor.deletePlugin': [{ error: offline }],
};
const input = { workspace: WORKSPACE, installed: false, type: 'EXTRACTOR' };
const paths = modelPaths(dataPluginsMachine, { input, events });

/** The catalogue's rules, on every step of every generated path. */
function checkStep(before: ModelStep, after: ModelStep): void {
  const event = after.event as { type: string; id?: string; page?: number };
  const was = before.state.context as DataPluginsContext;
  const now = after.state.context as DataPluginsContext;
  switch (event.type) {
    case 'user.install':
      expect(event.id).toBe(AVAILABLE.id);
      expect(after.state.matches('installing')).toBe(true);
      break;
    case 'user.delete':
      expect(event.id).toBe(REMOVABLE.id);
      expect(after.state.matches('confirming')).toBe(true);
      break;
    case 'user.search':
      expect(now.page).toBe(0);
      expect(after.state.matches('loading')).toBe(true);
      break;
    case 'user.page':
      expect(event.page).toBeGreaterThanOrEqual(0);
      expect(event.page).toBeLessThan(was.totalPages);
      break;
    case 'xstate.done.actor.installPlugin':
      expect(now.notice).toBe('GitHub installed');
      expect(after.state.matches('loading')).toBe(true);
      break;
    case 'xstate.done.actor.deletePlugin':
      expect(now.notice).toBe('CSV deleted');
      expect(after.state.matches('loading')).toBe(true);
      break;
  }
  if (event.type.startsWith('xstate.error.actor.')) {
    expect(now.error).toBe('We were unable to connect.');
    expect(now.items).toEqual(was.items);
  }
}

describe('dataPlugins machine (model-based)', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(dataPluginsMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(dataPluginsMachine, paths, { input, events })).toEqual([]);
  });

  it('keeps the rules on every step', () => {
    for (const path of paths) for (let i = 1; i < path.steps.length; i += 1) checkStep(path.steps[i - 1]!, path.steps[i]!);
  });

  it.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(dataPluginsMachine, path, {
      input,
      states: {
        // Every load asks for the page, search and type the context holds, on the chosen tab.
        loading: (s, log: ReplayLog) => {
          const context = s.context as DataPluginsContext;
          expect(log.invocations.at(-1)?.input).toMatchObject({ installed: false, type: 'EXTRACTOR', page: context.page, search: context.search });
        },
        installing: (_s, log: ReplayLog) => expect(log.invocations.at(-1)?.input).toMatchObject({ plugin: { id: AVAILABLE.id } }),
        deleting: (_s, log: ReplayLog) => expect(log.invocations.at(-1)?.input).toMatchObject({ plugin: { id: REMOVABLE.id } }),
      },
    });
  });
});

describe('dataPlugins actors against the API', () => {
  it('reads the available page by label, 20 at a time, installs by its link and reloads', async () => {
    const page = (items: DataPlugin[], total: number) => ({ body: { _embedded: { dataplugins: items }, page: { size: 20, totalElements: total, totalPages: 1, number: 0 } } });
    const fake = fakeFetch(page([AVAILABLE], 1), { body: { ...AVAILABLE, installed: true } }, page([], 0));
    const client = createApiClient({ baseURL: `${API}`, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(dataPluginsMachine.provide({ actors: dataPluginsActors(client) }), { input: { workspace: WORKSPACE, installed: false, type: 'EXTRACTOR' } }).start();
    await waitFor(actor, (s) => s.matches('idle') && s.context.items.length === 1);
    actor.send({ type: 'user.install', id: AVAILABLE.id });
    await waitFor(actor, (s) => s.matches('idle') && s.context.items.length === 0);
    expect(actor.getSnapshot().context.notice).toBe('GitHub installed');
    const urls = fake.calls.map((c) => `${c.method} ${c.url}`);
    expect(urls[0]).toMatch(/^GET http:\/\/api\.test\/api\/workspaces\/w1\/availabledataplugins\?/);
    expect(urls[0]).toContain('sort=label');
    expect(urls[0]).toContain('size=20');
    expect(urls[0]).toContain('type=EXTRACTOR');
    expect(urls[1]).toBe(`PUT ${href('extractors/tap-github--meltanolabs')}`);
    actor.stop();
  });
});
