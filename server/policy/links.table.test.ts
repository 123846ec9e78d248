import { describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import type { MemberRole } from '../db/schema';
import { hrefs } from './hrefs';
import { datasetLineageLinks, lineageDatasetLinks, lineageEventLinks, lineageTableLinks, pipelineLineageLinks, storeTableLinks, tableLineageLinks } from './lineageLinks';
import { dataComponentLinks, dataPluginLinks, dataStoreLinks, globalDataPluginDraftLinks, globalDataPluginLinks, isAdminRole, jobLinks, pipelineDraftLinks, pipelineLinks, resourceDraftLinks, resourceLinks, workspaceLinks, type PipelineLinkState } from './links';

// Who is offered what, written out by hand role by role (issue 40, items 2 and 4): the Lab and the
// workspace's administration are for owners and editors, reads for every member, and what queues a
// job only for a caller who may run things. Nothing here is computed by the policy under test.

const h = hrefs({ publicUrl: 'https://d.example' });
const A = 'https://d.example/api';
const W = '6d57d858-3c6d-40d0-9d9e-48fa69311f24';
const ADMINS: MemberRole[] = ['owner', 'editor'];
const rels = (links: object) => Object.keys(links).sort();
const sorted = (list: string[]) => [...list].sort();

describe('a workspace', () => {
  const EVERY_MEMBER = [
    REL.self, REL.channels, REL.questions, REL.feed, REL.search, REL.tags, REL.liked, REL.news, REL.newsChannels, REL.newsTags,
    REL.members, REL.administrators, REL.notifications, REL.addSubscription, REL.invitations, REL.datasets, REL.createChannel, REL.resources,
  ];
  const ADMIN_ONLY = [
    REL.memberSubscriptions, REL.createInvitation, REL.jobs, REL.updateDeleteWorkspace, REL.pipelines, REL.newPipeline, REL.datacomponents,
    REL.createDatacomponent, REL.dataplugins, REL.availableDataplugins, REL.publishDiscovery, REL.discovery, REL.validatePipeline,
    REL.datastores, REL.datastore, REL.publishDataset, REL.previewDataset, REL.tables, REL.lineageEvents, REL.publishResources,
  ];
  const RUNS_TOO = [REL.createDeployment, REL.newDatastore];

  it('offers a member the reads only, whether or not they may run things', () => {
    for (const runs of [true, false]) expect(rels(workspaceLinks(h, { id: W }, 'member', runs))).toEqual(sorted(EVERY_MEMBER));
  });

  it('offers an owner or editor the administration; what queues a job only when they may run things', () => {
    for (const role of ADMINS) {
      expect(rels(workspaceLinks(h, { id: W }, role, false))).toEqual(sorted([...EVERY_MEMBER, ...ADMIN_ONLY]));
      expect(rels(workspaceLinks(h, { id: W }, role, true))).toEqual(sorted([...EVERY_MEMBER, ...ADMIN_ONLY, ...RUNS_TOO]));
    }
  });

  it('leads each rel to its path', () => {
    const links = workspaceLinks(h, { id: W }, 'owner', true, 'c1');
    const at = (rel: string) => links[rel] as { href: string } | undefined;
    const ws = `${A}/workspaces/${W}`;
    const paths: [string, string][] = [
      [REL.self, ws], [REL.updateDeleteWorkspace, ws], [REL.channels, `${ws}/channels`], [REL.questions, `${ws}/questions`], [REL.feed, `${ws}/feed`],
      [REL.search, `${ws}/search`], [REL.tags, `${ws}/tags`], [REL.liked, `${ws}/liked`], [REL.news, `${ws}/news`], [REL.newsChannels, `${ws}/news/channels`],
      [REL.newsTags, `${ws}/news/tags`], [REL.members, `${ws}/members`], [REL.administrators, `${ws}/administrators`], [REL.notifications, `${ws}/notifications`],
      [REL.addSubscription, `${ws}/subscriptions`], [REL.memberSubscriptions, `${ws}/members/subscriptions`], [REL.invitations, `${ws}/invitations`],
      [REL.createInvitation, `${ws}/invitations`], [REL.jobs, `${ws}/jobs`], [REL.createDeployment, `${ws}/deployments`], [REL.pipelines, `${ws}/pipelines`],
      [REL.newPipeline, `${ws}/pipelines`], [REL.datacomponents, `${ws}/datacomponents`], [REL.createDatacomponent, `${ws}/datacomponents`],
      [REL.dataplugins, `${ws}/dataplugins`], [REL.availableDataplugins, `${ws}/availabledataplugins`], [REL.publishDiscovery, `${ws}/discovery.yml`],
      [REL.discovery, `${ws}/discovery.yml`], [REL.validatePipeline, `${ws}/pipelines/validation`], [REL.datastores, `${ws}/datastores`],
      [REL.datastore, `${ws}/datastore`], [REL.datasets, `${ws}/datasets`], [REL.publishDataset, `${ws}/datasets`], [REL.previewDataset, `${ws}/datasets/preview`],
      [REL.tables, `${ws}/tables`], [REL.lineageEvents, `${ws}/lineage/events`], [REL.createChannel, `${ws}/channels/c1`], [REL.newDatastore, `${ws}/datastores`],
      [REL.resources, `${ws}/resources`], [REL.publishResources, `${ws}/resources`],
    ];
    for (const [rel, href] of paths) expect(at(rel)?.href, rel).toBe(href);
  });

  it('isAdminRole: owners and editors', () => {
    expect(['owner', 'editor', 'member'].map((role) => isAdminRole(role as MemberRole))).toEqual([true, true, false]);
  });
});

describe('a pipeline (the Lab: admins only)', () => {
  const P = { id: 'p1', workspace_id: W };
  const ready: PipelineLinkState = { draft: false, complete: true, activeJobId: undefined, subscribed: false, runs: true };
  const ALWAYS = [REL.self, REL.jobs, REL.metrics, REL.environment, REL.state, REL.streams, REL.lineage, REL.draftPipeline, REL.datacomponents, REL.dataplugins];

  it('offers a member nothing', () => {
    expect(pipelineLinks(h, P, 'member', ready)).toEqual({});
    expect(pipelineDraftLinks(h, W, 'p1', 'member')).toEqual({});
  });

  it('a saved, complete pipeline with no job: run, check, refresh, update, delete, watch', () => {
    for (const role of ADMINS) {
      expect(rels(pipelineLinks(h, P, role, ready))).toEqual(sorted([...ALWAYS, REL.createJob, REL.verifyPipeline, REL.fullRefresh, REL.updatePipeline, REL.deletePipeline, REL.addSubscription]));
    }
  });

  it('a caller who may not run things is not offered to run or check it', () => {
    expect(rels(pipelineLinks(h, P, 'owner', { ...ready, runs: false }))).toEqual(sorted([...ALWAYS, REL.fullRefresh, REL.updatePipeline, REL.deletePipeline, REL.addSubscription]));
  });

  it('an incomplete pipeline is checked but not run', () => {
    expect(rels(pipelineLinks(h, P, 'owner', { ...ready, complete: false }))).toEqual(sorted([...ALWAYS, REL.verifyPipeline, REL.fullRefresh, REL.updatePipeline, REL.deletePipeline, REL.addSubscription]));
  });

  it('a draft is created, neither run, checked, refreshed nor updated', () => {
    expect(rels(pipelineLinks(h, P, 'owner', { ...ready, draft: true }))).toEqual(sorted([...ALWAYS, REL.createPipeline, REL.deletePipeline, REL.addSubscription]));
  });

  it('while a job runs: withdrawn, not deleted; a watcher is offered to stop watching', () => {
    const links = pipelineLinks(h, P, 'editor', { ...ready, activeJobId: 'j1', subscribed: true });
    expect(rels(links)).toEqual(sorted([...ALWAYS, REL.createJob, REL.verifyPipeline, REL.fullRefresh, REL.updatePipeline, REL.withdrawJob, REL.deleteSubscription]));
    expect(links[REL.withdrawJob]).toEqual({ href: `${A}/jobs/j1/stopped` });
    expect(links[REL.createJob]).toEqual({ href: `${A}/pipelines/p1/jobs` });
    expect(links[REL.verifyPipeline]).toEqual({ href: `${A}/pipelines/p1/verification` });
    expect(links[REL.fullRefresh]).toEqual({ href: `${A}/pipelines/p1/state` });
    expect(links[REL.deleteSubscription]).toEqual({ href: `${A}/pipelines/p1/subscriptions` });
    expect(links[REL.datacomponents]).toEqual({ href: `${A}/workspaces/${W}/datacomponents` });
  });

  it('an initialised pipeline is created or saved as a draft where the route takes it', () => {
    expect(pipelineDraftLinks(h, W, 'p2', 'owner')).toEqual({
      [REL.createPipeline]: { href: `${A}/workspaces/${W}/pipelines/p2` },
      [REL.draftPipeline]: { href: `${A}/workspaces/${W}/pipelines/p2/draft` },
      [REL.datacomponents]: { href: `${A}/workspaces/${W}/datacomponents` },
      [REL.dataplugins]: { href: `${A}/workspaces/${W}/dataplugins` },
    });
  });
});

describe('jobs, data components, stores and plugins (admins only)', () => {
  it('a job: admins see it and its logs; delete it when it is done, withdraw it while it runs; a setup task is only dismissed', () => {
    expect(jobLinks(h, { id: 'j1', status: 'RUNNING', type: 'PIPELINE_RUN' }, 'member')).toEqual({});
    expect(rels(jobLinks(h, { id: 'j1', status: 'RUNNING', type: 'PIPELINE_RUN' }, 'owner'))).toEqual(sorted([REL.self, REL.logs, REL.withdrawJob]));
    expect(rels(jobLinks(h, { id: 'j1', status: 'COMPLETE', type: 'PIPELINE_RUN' }, 'editor'))).toEqual(sorted([REL.self, REL.logs, REL.deleteJob]));
    expect(rels(jobLinks(h, { id: 'j1', status: 'RUNNING', type: 'PROFILE_NEW_DATASTORE' }, 'owner'))).toEqual(sorted([REL.self, REL.logs, REL.deleteJob]));
    expect(jobLinks(h, { id: 'j1', status: 'QUEUED', type: 'PIPELINE_RUN' }, 'owner')[REL.logs]).toEqual({ href: `${A}/jobs/j1/logs` });
  });

  it('a data component', () => {
    expect(dataComponentLinks(h, { id: 'c1' }, 'member')).toEqual({});
    expect(dataComponentLinks(h, { id: 'c1' }, 'editor')).toEqual({
      [REL.self]: { href: `${A}/datacomponents/c1` },
      [REL.updateDatacomponent]: { href: `${A}/datacomponents/c1` },
      [REL.authorizeDatacomponent]: { href: `${A}/tokens/{provider}/token`, templated: true },
      [REL.disconnectDatacomponent]: { href: `${A}/datacomponents/c1/credentials` },
      [REL.deleteDatacomponent]: { href: `${A}/datacomponents/c1` },
    });
  });

  it('a data store: the embedded one is never changed or removed, the default never removed, only a READY one made the default', () => {
    const store = { id: 's1', workspace_id: W, data_plugin: 'loaders/target-postgres--x', is_default: false, managed: false, draft: false, status: 'READY' };
    expect(dataStoreLinks(h, store, 'member', true)).toEqual({});
    expect(rels(dataStoreLinks(h, store, 'owner', true))).toEqual(sorted([REL.self, REL.updateDatastore, REL.makeDefault, REL.deleteDatastore]));
    expect(rels(dataStoreLinks(h, store, 'owner', false))).toEqual(sorted([REL.self, REL.makeDefault, REL.deleteDatastore]));
    expect(rels(dataStoreLinks(h, { ...store, status: 'ERROR' }, 'owner', true))).toEqual(sorted([REL.self, REL.updateDatastore, REL.deleteDatastore]));
    expect(rels(dataStoreLinks(h, { ...store, draft: true }, 'owner', true))).toEqual(sorted([REL.self, REL.updateDatastore, REL.deleteDatastore]));
    expect(rels(dataStoreLinks(h, { ...store, is_default: true }, 'editor', true))).toEqual(sorted([REL.self, REL.updateDatastore]));
    expect(dataStoreLinks(h, store, 'owner', true)[REL.makeDefault]).toEqual({ href: `${A}/datastores/s1/default` });
  });

  it('the embedded store: only its page, which browses the tables', () => {
    // the built-in store's plugin, as the store keeps it (server/stores/defaultStore.ts)
    const embedded = { id: 's0', workspace_id: W, data_plugin: 'loaders/target-store--builtin', is_default: true, managed: true, draft: false, status: 'READY' };
    const links = dataStoreLinks(h, embedded, 'owner', true);
    expect(links).toEqual({ [REL.self]: { href: `${A}/datastores/s0` }, [REL.tables]: { href: `${A}/workspaces/${W}/tables` } });
  });

  it("a workspace's plugin: installed while available, removed while it may be", () => {
    const href = { href: `${A}/workspaces/${W}/dataplugins/extractors/tap-x` };
    expect(dataPluginLinks(h, W, { id: 'extractors/tap-x', installed: false, canDelete: false }, 'member')).toEqual({});
    expect(dataPluginLinks(h, W, { id: 'extractors/tap-x', installed: false, canDelete: false }, 'owner')).toEqual({ [REL.self]: href, [REL.addDataplugin]: href });
    expect(dataPluginLinks(h, W, { id: 'extractors/tap-x', installed: true, canDelete: true }, 'editor')).toEqual({ [REL.self]: href, [REL.deleteDataplugin]: href });
  });

  it("the global catalogue: read by everyone; a workspace's own plugin is its admins' alone", () => {
    const self = { href: `${A}/dataplugins/g1` };
    expect(globalDataPluginLinks(h, { id: 'g1', workspaceId: null, canDelete: true }, undefined)).toEqual({ [REL.self]: self });
    expect(globalDataPluginLinks(h, { id: 'g1', workspaceId: W, canDelete: true }, undefined)).toEqual({});
    expect(globalDataPluginLinks(h, { id: 'g1', workspaceId: W, canDelete: true }, 'member')).toEqual({});
    expect(globalDataPluginLinks(h, { id: 'g1', workspaceId: W, canDelete: true }, 'owner')).toEqual({
      [REL.self]: self, [REL.updateDataplugin]: self, [REL.deleteDataplugin]: self, [REL.workspace]: { href: `${A}/workspaces/${W}` },
    });
    expect(rels(globalDataPluginLinks(h, { id: 'g1', workspaceId: W, canDelete: false }, 'editor'))).toEqual(sorted([REL.self, REL.updateDataplugin, REL.workspace]));
    expect(globalDataPluginDraftLinks(h, 'g2', true)).toEqual({ [REL.createDataplugin]: { href: `${A}/dataplugins/g2` } });
    expect(globalDataPluginDraftLinks(h, 'g2', false)).toEqual({});
  });
});

describe('workspace resources', () => {
  it('every member downloads; admins replace, delete and create', () => {
    const href = { href: `${A}/workspaces/${W}/resources/docs/a%20b.csv` };
    expect(resourceLinks(h, { workspace_id: W, path: 'docs/a b.csv' }, 'member')).toEqual({ [REL.self]: href });
    expect(resourceLinks(h, { workspace_id: W, path: 'docs/a b.csv' }, 'editor')).toEqual({ [REL.self]: href, [REL.updateResource]: href, [REL.deleteResource]: href });
    expect(resourceDraftLinks(h, W, 'docs/a b.csv', 'member')).toEqual({});
    expect(resourceDraftLinks(h, W, 'docs/a b.csv', 'owner')).toEqual({ [REL.createResource]: href });
    expect(resourceDraftLinks(h, W, undefined, 'owner')).toEqual({ [REL.createResource]: { href: `${A}/workspaces/${W}/resources/{path}`, templated: true } });
  });
});

describe('lineage (issue 41): every member reads a dataset’s; what it leads to in the Lab is for admins', () => {
  const table = { workspaceId: W, name: 'my orders', exists: true, pipelineId: 'p1', loadedById: 'j1', latestRunId: 'j2' };

  it('the dataset side', () => {
    expect(datasetLineageLinks(h, 'd1')).toEqual({ [REL.self]: { href: `${A}/datasets/d1/lineage` }, [REL.dataset]: { href: `${A}/datasets/d1` } });
    expect(lineageDatasetLinks(h, 'd1')).toEqual({ [REL.self]: { href: `${A}/datasets/d1` }, [REL.lineage]: { href: `${A}/datasets/d1/lineage` } });
    expect(lineageEventLinks(h, { kind: 'RUN', subjectId: 'j1' })).toEqual({ [REL.run]: { href: `${A}/jobs/j1` } });
    expect(lineageEventLinks(h, { kind: 'PUBLISH', subjectId: 'd1' })).toEqual({ [REL.dataset]: { href: `${A}/datasets/d1` } });
  });

  it('the Lab side', () => {
    expect(pipelineLineageLinks(h, 'p1', 'member')).toEqual({});
    expect(pipelineLineageLinks(h, 'p1', 'editor')).toEqual({ [REL.self]: { href: `${A}/pipelines/p1/lineage` }, [REL.pipeline]: { href: `${A}/pipelines/p1` } });
    expect(lineageTableLinks(h, table, 'member')).toEqual({});
    expect(lineageTableLinks(h, table, 'owner')).toEqual({
      [REL.table]: { href: `${A}/workspaces/${W}/tables/my%20orders` },
      [REL.pipeline]: { href: `${A}/pipelines/p1` },
      [REL.lineage]: { href: `${A}/pipelines/p1/lineage` },
      [REL.loadedBy]: { href: `${A}/jobs/j1` },
      [REL.latestRun]: { href: `${A}/jobs/j2` },
    });
    expect(lineageTableLinks(h, { ...table, exists: false, pipelineId: null, loadedById: null, latestRunId: null }, 'owner')).toEqual({});
  });

  it('the store browser', () => {
    const self = `${A}/workspaces/${W}/tables/my%20orders`;
    expect(storeTableLinks(h, W, 'my orders', 'member')).toEqual({ [REL.self]: { href: self } });
    expect(storeTableLinks(h, W, 'my orders', 'owner')).toEqual({ [REL.self]: { href: self }, [REL.lineage]: { href: `${self}/lineage` } });
    expect(tableLineageLinks(h, W, 'my orders')).toEqual({ [REL.self]: { href: `${self}/lineage` }, [REL.table]: { href: self } });
  });
});
