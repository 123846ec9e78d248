import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../../src/domain/relations';
import type { Caller } from '../../../server/policy/caller';
import { hrefs } from '../../../server/policy/hrefs';
import * as lineageLinkSets from '../../../server/policy/lineageLinks';
import * as linkSets from '../../../server/policy/links';
import type { RegisteredRoute } from '../../../server/routes';
import { startWorld, type World } from '../helpers/world';
import { apiRoutes } from './fixtures';

// Two promises of the contract, checked against the routes Fastify really registered:
// every route goes through the policy guard, and every link the policy can render has a handler.

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const ID = '11111111-1111-4111-8111-111111111111';

/** A caller for whom every condition of the policy holds: a verified person with a profile, owner of everything. */
function everything(): Caller {
  const profile = {
    id: ID,
    name: 'All',
    email: 'all@example.com',
    default_workspace_id: ID,
    features_disabled: null,
    can_create_workspaces: true,
    created_at: new Date(),
    updated_at: new Date(),
    credentials_changed_at: null,
  };
  return {
    kind: 'user',
    principal: { subject: ID, email: 'all@example.com', emailVerified: true, name: 'All', clientId: undefined, kind: 'user', issuedAt: undefined },
    profileId: ID,
    profile,
    apiKeyId: undefined,
    prefetched: undefined,
  };
}

/** Every link set of the policy, rendered with every condition true. Adding a link set means adding it here. */
function renderEveryLinkSet(baseUrl: string): Record<string, Record<string, { href: string }>> {
  const h = hrefs({ publicUrl: baseUrl });
  const caller = everything();
  const job = { id: ID, status: 'COMPLETE', type: 'PIPELINE_RUN' };
  const activeJob = { id: ID, status: 'RUNNING', type: 'PIPELINE_RUN' };
  const pipeline = { id: ID, workspace_id: ID };
  return {
    rootLinks: linkSets.rootLinks(h, caller),
    profileLinks: linkSets.profileLinks(h, caller, { id: ID, can_create_workspaces: true }),
    workspaceLinks: linkSets.workspaceLinks(h, { id: ID }, 'owner', true),
    workspaceDraftLinks: linkSets.workspaceDraftLinks(h, caller, ID),
    jobLinks: { ...linkSets.jobLinks(h, job, 'owner'), ...linkSets.jobLinks(h, activeJob, 'owner') },
    // Watched or not: both subscription links.
    datasetLinks: {
      ...linkSets.datasetLinks(h, { id: ID, holds_rows: true, query: null }, { role: 'owner', liked: true, subscribed: true, mayComment: true }),
      ...linkSets.datasetLinks(h, { id: ID, holds_rows: false, query: 'SELECT 1' }, { role: 'owner', liked: false, subscribed: false, mayComment: true }),
    },
    // Private or public: both scope links.
    channelLinks: {
      ...linkSets.channelLinks(h, { id: ID, type: 'LIST', scope: 'PROFILE', creator_id: ID }, { role: 'member', profileId: ID, subscribed: false }),
      ...linkSets.channelLinks(h, { id: ID, type: 'LIST', scope: 'WORKSPACE', creator_id: ID }, { role: 'member', profileId: ID, subscribed: true }),
    },
    // An initialised list (POST 'new channel'): its creation in the caller's default workspace.
    channelDraftLinks: linkSets.channelDraftLinks(h, ID, ID),
    apiKeyLinks: linkSets.apiKeyLinks(h, caller, { id: ID, profile_id: ID }),
    apiKeyDraftLinks: linkSets.apiKeyDraftLinks(h, caller, ID),
    notificationLinks: linkSets.notificationLinks(h, caller, { id: ID, profile_id: ID, resolved: false }),
    notificationSettingsLinks: linkSets.notificationSettingsLinks(h, caller),
    // Pending (withdraw, delete) and accepted with either role (the admin toggle).
    invitationLinks: {
      ...linkSets.invitationLinks(h, caller, { id: ID, email: 'all@example.com', status: 'PENDING', invitee_role: null }, 'owner'),
      ...linkSets.invitationLinks(h, caller, { id: ID, email: 'all@example.com', status: 'ACCEPTED', invitee_role: 'member' }, 'owner'),
      ...linkSets.invitationLinks(h, caller, { id: ID, email: 'all@example.com', status: 'ACCEPTED', invitee_role: 'editor' }, 'owner'),
    },
    // Links that exclude each other (draft or not, watched or not) are rendered in both states.
    pipelineLinks: {
      ...linkSets.pipelineLinks(h, pipeline, 'owner', { draft: false, complete: true, activeJobId: ID, subscribed: false, runs: true }),
      ...linkSets.pipelineLinks(h, pipeline, 'owner', { draft: true, complete: true, activeJobId: undefined, subscribed: true, runs: true }),
    },
    pipelineDraftLinks: linkSets.pipelineDraftLinks(h, ID, ID, 'owner'),
    dataComponentLinks: linkSets.dataComponentLinks(h, { id: ID }, 'owner'),
    // Installable and removable exclude each other: rendered in both states.
    dataPluginLinks: {
      ...linkSets.dataPluginLinks(h, ID, { id: 'extractors/tap-github--meltanolabs', installed: false, canDelete: false }, 'owner'),
      ...linkSets.dataPluginLinks(h, ID, { id: 'extractors/tap-github--meltanolabs', installed: true, canDelete: true }, 'owner'),
    },
    // The global catalogue: a plugin the server ships, a workspace's own (removable), and a draft.
    globalDataPluginLinks: {
      ...linkSets.globalDataPluginLinks(h, { id: 'extractors/tap-github--meltanolabs', workspaceId: null, canDelete: false }, undefined),
      ...linkSets.globalDataPluginLinks(h, { id: ID, workspaceId: ID, canDelete: true }, 'owner'),
    },
    globalDataPluginDraftLinks: linkSets.globalDataPluginDraftLinks(h, ID, true),
    // An initialised comment offers only its creation; a written one everything else.
    commentLinks: {
      ...linkSets.commentLinks(h, { id: ID, dataset_id: ID, parent_id: null, author_id: ID, message: 'hi' }, { role: 'owner', profileId: ID, mayComment: true }),
      ...linkSets.commentLinks(h, { id: ID, dataset_id: ID, parent_id: null, author_id: ID, message: null }, { role: 'owner', profileId: ID, mayComment: true }),
    },
    // A stored resource (read, replace, delete) and a path with none yet (create), named and templated.
    resourceLinks: linkSets.resourceLinks(h, { workspace_id: ID, path: 'reports/2026 Q1.csv' }, 'owner'),
    resourceDraftLinks: { ...linkSets.resourceDraftLinks(h, ID, 'new/file.txt', 'owner'), ...linkSets.resourceDraftLinks(h, ID, undefined, 'owner') },
    // A store of its own and the embedded one (whose page browses the workspace's tables).
    dataStoreLinks: {
      ...linkSets.dataStoreLinks(h, { id: ID, workspace_id: ID, data_plugin: 'loaders/target-postgres--transferwise', is_default: false, managed: false, draft: false, status: 'READY' }, 'owner', true),
      ...linkSets.dataStoreLinks(h, { id: ID, workspace_id: ID, data_plugin: 'loaders/target-store--builtin', is_default: true, managed: true, draft: false, status: 'READY' }, 'owner', true),
    },
    subscriptionLinks: linkSets.subscriptionLinks(h, caller, { id: ID, profile_id: ID }),
    // A plain member (promotable, removable by the owner) and an editor (demotable).
    memberLinks: {
      ...linkSets.memberLinks(h, ID, { id: ID, role: 'member' }, 'owner'),
      ...linkSets.memberLinks(h, ID, { id: ID, role: 'editor' }, 'owner'),
    },
    alertLinks: linkSets.alertLinks(h, { id: ID }),
    alertDraftLinks: linkSets.alertDraftLinks(h, ID, ID, 'owner'),
    datasetMessageLinks: linkSets.datasetMessageLinks(h, caller, { id: ID, dataset_id: ID, sender_id: ID }),
    tagLinks: linkSets.tagLinks(h, ID, ID),
    // Lineage (issue 41): a table with its store table, pipeline and runs; the dataset and pipeline bodies.
    datasetLineageLinks: lineageLinkSets.datasetLineageLinks(h, ID),
    pipelineLineageLinks: lineageLinkSets.pipelineLineageLinks(h, ID, 'owner'),
    lineageTableLinks: lineageLinkSets.lineageTableLinks(h, { workspaceId: ID, name: 'web_sessions', exists: true, pipelineId: ID, loadedById: ID, latestRunId: ID }, 'owner'),
    lineageDatasetLinks: lineageLinkSets.lineageDatasetLinks(h, ID),
    // the store browser's table and its lineage
    storeTableLinks: lineageLinkSets.storeTableLinks(h, ID, 'web_sessions', 'owner'),
    tableLineageLinks: lineageLinkSets.tableLineageLinks(h, ID, 'web_sessions'),
    // an OpenLineage event of the workspace's list: the run it reports, or the published dataset
    lineageEventLinks: { ...lineageLinkSets.lineageEventLinks(h, { kind: 'RUN', subjectId: ID }), ...lineageLinkSets.lineageEventLinks(h, { kind: 'PUBLISH', subjectId: ID }) },
  };
}

/** A Fastify path pattern as a regular expression over a URL path. */
function patternOf(route: RegisteredRoute): RegExp {
  const escaped = route.url
    .replace(/\/$/, '')
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

describe('the policy guard covers every route', () => {
  it('registers routes, each declared through defineRoute with a resource and a relation', () => {
    const routes = apiRoutes(world);
    expect(routes.length).toBeGreaterThan(25);
    const unguarded = routes.filter((r) => r.meta === undefined).map((r) => `${r.method} ${r.url}`);
    expect(unguarded, 'routes that bypass the policy guard').toEqual([]);
    for (const route of routes) {
      const rels = [route.meta?.guard.rel ?? []].flat();
      expect(rels.length, `${route.method} ${route.url}`).toBeGreaterThan(0);
      // Only relation names of the one table: a typo would make the guard refuse everyone.
      for (const rel of rels) expect(Object.values(REL), `${route.method} ${route.url}: '${rel}'`).toContain(rel);
    }
  });
});

describe('every link the policy can render leads to a handler', () => {
  it('renders each exported link set in this test', () => {
    const exported = [...Object.keys(linkSets), ...Object.keys(lineageLinkSets)].filter((name) => name.endsWith('Links'));
    expect(Object.keys(renderEveryLinkSet(world.baseUrl)).sort()).toEqual(exported.sort());
  });

  it('finds a registered route for the href of every relation', () => {
    const patterns = apiRoutes(world).map(patternOf);
    const dangling: string[] = [];
    for (const [set, rendered] of Object.entries(renderEveryLinkSet(world.baseUrl))) {
      expect(Object.keys(rendered).length, set).toBeGreaterThan(0);
      for (const [rel, { href }] of Object.entries(rendered)) {
        const url = new URL(href);
        expect(url.origin, `${set} '${rel}'`).toBe(new URL(world.baseUrl).origin);
        if (!patterns.some((p) => p.test(url.pathname))) dangling.push(`${set} '${rel}' → ${url.pathname}`);
      }
    }
    expect(dangling, 'relations offered without a handler').toEqual([]);
  });

  it('offers every relation a route demands somewhere in the policy', () => {
    const offered = new Set(Object.values(renderEveryLinkSet(world.baseUrl)).flatMap((set) => Object.keys(set)));
    const unreachable = apiRoutes(world)
      .flatMap((r) => [r.meta?.guard.rel ?? []].flat().map((rel) => ({ route: `${r.method} ${r.url}`, rel })))
      .filter(({ rel }) => !offered.has(rel));
    expect(unreachable, 'routes no caller could ever be allowed').toEqual([]);
  });
});
