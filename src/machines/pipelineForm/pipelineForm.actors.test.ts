import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch, type FakeReply } from '../../api/testing/fakeFetch';
import type { Pipeline } from '../../domain/resources';
import { pipelineFormActors } from './pipelineForm.actors';

// The form's actors over the real client and a scripted fetch: which request each makes, what it
// makes of the answers, and that stopping the form cancels the request under way.

const API = 'http://api.test/api';
const link = (path: string) => ({ href: `${API}${path}` });
const WORKSPACE = { _links: { 'new pipeline': link('/workspaces/w1/pipelines'), pipelines: link('/workspaces/w1/pipelines'), dataplugins: link('/workspaces/w1/dataplugins') } };
const NO_PIPELINES_LINK = { _links: { 'new pipeline': link('/workspaces/w1/pipelines'), dataplugins: link('/workspaces/w1/dataplugins') } };
const DEMO_PLUGIN = { id: 'demo', name: 'tap-demo', pluginType: 'EXTRACTOR', label: 'Demo data', variant: 'builtin', settings: [{ name: 'rows', kind: 'INTEGER' }] };
const STORED: Pipeline = { id: 'p2', name: 'Orders', _links: { 'update pipeline': link('/pipelines/p2'), 'create job': link('/pipelines/p2/jobs'), lineage: link('/pipelines/p2/lineage') } };

const actorsOver = (...replies: FakeReply[]) => {
  const fake = fakeFetch(...replies);
  const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch });
  return { fake, actors: pipelineFormActors(client) };
};
const input = (over: { pipelineId?: string | null; dataPluginId?: string | null; workspace?: typeof WORKSPACE | typeof NO_PIPELINES_LINK } = {}) => ({
  workspaceId: 'w1',
  workspace: WORKSPACE,
  pipelineId: 'p2',
  dataPluginId: null,
  validate: false,
  ...over,
});

describe('pipelineForm actors, checked by hand', () => {
  it("loads a stored pipeline by its id, its components from their plugins; a plugin it has is not added twice; no pipelines link, no triggers", async () => {
    const { fake, actors } = actorsOver(
      { body: { ...STORED, _embedded: { dataComponents: [{ id: 'c1', name: 'tap-demo', _embedded: { dataplugin: DEMO_PLUGIN } }] } } },
      { body: { _embedded: { dataplugins: [DEMO_PLUGIN] } } },
    );
    const form = await toPromise(createActor(actors.loadForm, { input: input({ dataPluginId: 'demo', workspace: NO_PIPELINES_LINK }) }).start());
    expect(fake.calls.map((c) => [c.method, c.url])).toEqual([
      ['GET', `${API}/pipelines/p2`],
      ['GET', `${API}/workspaces/w1/dataplugins?sort=label&size=9999`],
    ]);
    expect(form.components).toEqual([{ ref: 'tap-demo', name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', label: 'Demo data', description: null, settings: [{ name: 'rows', kind: 'INTEGER' }] }]);
    expect(form.triggers).toEqual([]);
    expect(form.pipeline).toMatchObject({ id: 'p2', name: 'Orders' });
  });

  it('an empty ?dataplugin reads no plugin; the workspace\'s pipelines are the triggers', async () => {
    const { fake, actors } = actorsOver({ body: STORED }, { body: { _embedded: { pipelines: [{ id: 'p9', name: 'Customers' }] } } });
    const form = await toPromise(createActor(actors.loadForm, { input: input({ dataPluginId: '' }) }).start());
    expect(fake.calls.map((c) => [c.method, c.url])).toEqual([
      ['GET', `${API}/pipelines/p2`],
      ['GET', `${API}/workspaces/w1/pipelines?size=99`],
    ]);
    expect(form.components).toEqual([]);
    expect(form.triggers).toMatchObject([{ id: 'p9', name: 'Customers' }]);
  });

  it('no ?dataplugin reads no plugin; a plugin the pipeline lacks is added after the components it has', async () => {
    const none = actorsOver({ body: STORED }, { body: { _embedded: { pipelines: [] } } });
    await toPromise(createActor(none.actors.loadForm, { input: input({ dataPluginId: null }) }).start());
    expect(none.fake.calls.map((c) => c.url)).toEqual([`${API}/pipelines/p2`, `${API}/workspaces/w1/pipelines?size=99`]);
    const loader = { id: 'pg', name: 'target-postgres', pluginType: 'LOADER', label: 'PostgreSQL', variant: 'builtin', settings: [] };
    const added = actorsOver(
      { body: { ...STORED, _embedded: { dataComponents: [{ id: 'c2', name: 'target-postgres', _embedded: { dataplugin: loader } }] } } },
      { body: { _embedded: { dataplugins: [loader, DEMO_PLUGIN] } } },
    );
    const form = await toPromise(createActor(added.actors.loadForm, { input: input({ dataPluginId: 'demo', workspace: NO_PIPELINES_LINK }) }).start());
    expect(form.components.map((c) => c.name)).toEqual(['target-postgres', 'tap-demo']);
  });

  it('asks for the run through the saved pipeline\'s create job link, and for its impact through its lineage link', async () => {
    const run = actorsOver({ status: 204 });
    await toPromise(createActor(run.actors.startJob, { input: { pipeline: STORED } }).start());
    expect(run.fake.calls.map((c) => [c.method, c.url])).toEqual([['POST', `${API}/pipelines/p2/jobs`]]);
    const lineage = { pipelineId: 'p2', name: 'Orders', status: 'fresh', extractors: [], tables: [], datasets: [], dashboards: [] };
    const impact = actorsOver({ body: lineage });
    await expect(toPromise(createActor(impact.actors.loadImpact, { input: { pipeline: STORED } }).start())).resolves.toMatchObject({ pipelineId: 'p2', tables: [] });
    expect(impact.fake.calls.map((c) => [c.method, c.url])).toEqual([['GET', `${API}/pipelines/p2/lineage`]]);
  });

  it('stopping the form cancels the request under way, whichever actor made it', async () => {
    const hang = { hang: true } as const;
    const started = [
      (a: ReturnType<typeof pipelineFormActors>) => createActor(a.loadForm, { input: input({ pipelineId: null }) }),
      (a: ReturnType<typeof pipelineFormActors>) => createActor(a.loadForm, { input: input() }),
      (a: ReturnType<typeof pipelineFormActors>) => createActor(a.savePipeline, { input: { pipeline: STORED, rel: 'update pipeline', body: { name: 'Orders' } } }),
      (a: ReturnType<typeof pipelineFormActors>) => createActor(a.startJob, { input: { pipeline: STORED } }),
      (a: ReturnType<typeof pipelineFormActors>) => createActor(a.loadImpact, { input: { pipeline: STORED } }),
    ];
    const later = [
      // the plugin and the pipelines are read with the same signal
      (a: ReturnType<typeof pipelineFormActors>) => createActor(a.loadForm, { input: input({ dataPluginId: 'demo' }) }),
      (a: ReturnType<typeof pipelineFormActors>) => createActor(a.loadForm, { input: input() }),
    ];
    for (const make of started) {
      const { fake, actors } = actorsOver(hang);
      const actor = make(actors).start();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(fake.calls).toHaveLength(1);
      expect(fake.calls[0]!.signal?.aborted).toBe(false);
      actor.stop();
      expect(fake.calls[0]!.signal?.aborted).toBe(true);
    }
    for (const make of later) {
      const { fake, actors } = actorsOver({ body: STORED }, hang);
      const actor = make(actors).start();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(fake.calls).toHaveLength(2);
      actor.stop();
      expect(fake.calls[1]!.signal?.aborted).toBe(true);
    }
  });
});
