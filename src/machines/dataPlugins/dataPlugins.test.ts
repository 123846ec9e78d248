import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { DataPlugin } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ModelStep, ReplayLog } from '../testing';
import { dataPluginsActors } from './dataPlugins.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { dataPluginsMachine, type DataPluginsContext, type PluginInput, type PluginListQuery } from './dataPlugins.machine';
import { deferred } from '../testing/deferred.fixture';

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

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
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

// Independent checks (issue 40): the actors are the test's own and answer when the test says; the
// expected queries, notices and texts are written here by hand.
describe('dataPlugins, checked by hand', () => {
  type Page = { items: DataPlugin[]; totalElements: number; totalPages: number };

  function start(installed = false) {
    const loads: { input: PluginListQuery; answer: ReturnType<typeof deferred<Page>> }[] = [];
    const changes: { call: string; answer: ReturnType<typeof deferred<void>> }[] = [];
    const change = (name: string) =>
      fromPromise<void, PluginInput>(({ input: given }) => {
        const answer = deferred<void>();
        changes.push({ call: `${name} ${given.plugin.id}`, answer });
        return answer.promise;
      });
    const actors = {
      loadPlugins: fromPromise<Page, PluginListQuery>(({ input: query }) => {
        const answer = deferred<Page>();
        loads.push({ input: query, answer });
        return answer.promise;
      }),
      installPlugin: change('install'),
      deletePlugin: change('delete'),
    };
    const actor = createActor(dataPluginsMachine.provide({ actors }), { input: { workspace: WORKSPACE, installed, type: null } }).start();
    return { actor, loads, changes };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const NAMELESS: DataPlugin = { ...AVAILABLE, id: 'x/nameless', label: undefined, name: 'tap-nameless', _links: { 'add dataplugin': { href: href('x/nameless') } } };

  it('asks for the first page of the tab, then the page and search asked for; a search goes back to page 0', async () => {
    const { actor, loads } = start(true);
    await settle();
    expect(loads[0]!.input).toEqual({ workspace: WORKSPACE, installed: true, page: 0, search: '', type: null });
    loads[0]!.answer.resolve({ items: [AVAILABLE, REMOVABLE], totalElements: 45, totalPages: 3 });
    await waitFor(actor, (s) => s.matches('idle'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ items: [AVAILABLE, REMOVABLE], totalElements: 45, totalPages: 3, error: null });
    // the current page, a page past the end, a negative or fractional one: no load
    for (const page of [0, 3, -1, 1.5]) {
      actor.send({ type: 'user.page', page });
      expect(actor.getSnapshot().value, String(page)).toBe('idle');
    }
    actor.send({ type: 'user.page', page: 2 });
    expect(actor.getSnapshot().value).toBe('loading');
    await settle();
    expect(loads[1]!.input).toMatchObject({ page: 2, search: '' });
    // a search while a page loads starts again from page 0
    actor.send({ type: 'user.search', search: 'csv' });
    await settle();
    expect(loads).toHaveLength(3);
    expect(loads[2]!.input).toMatchObject({ page: 0, search: 'csv' });
    actor.stop();
  });

  it('a plugin listed without links can be neither installed nor deleted', async () => {
    const { actor, loads, changes } = start();
    await settle();
    const { _links: _, ...bare } = AVAILABLE;
    loads[0]!.answer.resolve({ items: [bare], totalElements: 1, totalPages: 1 });
    await waitFor(actor, (s) => s.matches('idle'), { timeout: 1_000 });
    actor.send({ type: 'user.install', id: bare.id });
    actor.send({ type: 'user.delete', id: bare.id });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().status).toBe('active');
    expect(changes).toEqual([]);
    actor.stop();
  });

  it('says what was installed, by label or else by name, and reloads; a failure says why and forgets the target', async () => {
    const { actor, loads, changes } = start();
    await settle();
    loads[0]!.answer.resolve({ items: [AVAILABLE, NAMELESS], totalElements: 2, totalPages: 1 });
    await waitFor(actor, (s) => s.matches('idle'), { timeout: 1_000 });
    actor.send({ type: 'user.install', id: NAMELESS.id });
    expect(actor.getSnapshot().context.target).toEqual(NAMELESS);
    await settle();
    expect(changes.map((c) => c.call)).toEqual(['install x/nameless']);
    changes[0]!.answer.resolve();
    await waitFor(actor, (s) => s.matches('loading'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ notice: 'tap-nameless installed', target: null });
    loads[1]!.answer.resolve({ items: [AVAILABLE], totalElements: 1, totalPages: 1 });
    await waitFor(actor, (s) => s.matches('idle'), { timeout: 1_000 });
    // a new install clears the last notice; its failure keeps the list and says why
    actor.send({ type: 'user.install', id: AVAILABLE.id });
    expect(actor.getSnapshot().context.notice).toBeNull();
    await settle();
    changes[1]!.answer.reject(offline);
    await waitFor(actor, (s) => s.matches('idle'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ error: 'We were unable to connect.', target: null, items: [AVAILABLE] });
    // Dismiss clears it; a reload clears it too
    actor.send({ type: 'user.dismiss' });
    expect(actor.getSnapshot().context).toMatchObject({ error: null, notice: null });
    actor.stop();
  });

  it('deletes only after the confirmation; Cancel forgets the target; a failed delete says why', async () => {
    const { actor, loads, changes } = start(true);
    await settle();
    loads[0]!.answer.resolve({ items: [REMOVABLE], totalElements: 1, totalPages: 1 });
    await waitFor(actor, (s) => s.matches('idle'), { timeout: 1_000 });
    actor.send({ type: 'user.delete', id: REMOVABLE.id });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.target).toEqual(REMOVABLE);
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.target).toBeNull();
    actor.send({ type: 'user.delete', id: REMOVABLE.id });
    actor.send({ type: 'user.confirmDelete' });
    await settle();
    expect(changes.map((c) => c.call)).toEqual(['delete extractors/tap-csv--meltanolabs']);
    changes[0]!.answer.reject(offline);
    await waitFor(actor, (s) => s.matches('idle'), { timeout: 1_000 });
    expect(actor.getSnapshot().context).toMatchObject({ error: 'We were unable to connect.', target: null });
    actor.send({ type: 'user.reload' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await settle();
    loads[1]!.answer.reject(offline);
    await waitFor(actor, (s) => s.matches('idle'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.error).toBe('We were unable to connect.');
    actor.send({ type: 'user.delete', id: REMOVABLE.id });
    actor.send({ type: 'user.confirmDelete' });
    await settle();
    changes[1]!.answer.resolve();
    await waitFor(actor, (s) => s.matches('loading'), { timeout: 1_000 });
    expect(actor.getSnapshot().context.notice).toBe('CSV deleted');
    actor.stop();
  });

  it('refuses a delete without canDelete, or with canDelete and no delete link', async () => {
    const flagged: DataPlugin = { ...REMOVABLE, id: 'x/flag', _links: { self: { href: href('x/flag') } } };
    const linked: DataPlugin = { ...REMOVABLE, id: 'x/link', canDelete: false };
    const { actor, loads } = start(true);
    await settle();
    loads[0]!.answer.resolve({ items: [flagged, linked], totalElements: 2, totalPages: 1 });
    await waitFor(actor, (s) => s.matches('idle'), { timeout: 1_000 });
    actor.send({ type: 'user.delete', id: 'x/flag' });
    actor.send({ type: 'user.delete', id: 'x/link' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.stop();
  });

  it('cancels each request when the page is left', async () => {
    const query: PluginListQuery = { workspace: WORKSPACE, installed: false, page: 0, search: '', type: null };
    expect(await requestsCancelledOnStop(dataPluginsActors, { loadPlugins: query, installPlugin: { plugin: AVAILABLE }, deletePlugin: { plugin: REMOVABLE } })).toEqual({
      loadPlugins: true,
      installPlugin: true,
      deletePlugin: true,
    });
  });
});
