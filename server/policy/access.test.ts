import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { useMemoryDatabase } from '../../tests/support/memoryDatabase';
import type { Principal } from '../http/auth';
import type { ProfileRow } from '../repositories/profiles';
import { resolveAccess, RESOURCE_KINDS, type AccessContext, type ResourceKind } from './access';
import { resolveCaller, type Caller } from './caller';
import { hrefs } from './hrefs';

// What resolveAccess answers each kind of caller, on a memory database (issue 40, item 4): the
// owner, an editor (an admin), a plain member, an outsider (owner of another workspace) and a
// caller without a profile. The api lane checks the routes; this file checks the resolvers
// themselves, with the expected rels, hrefs and refusals written out by hand.

const handle = useMemoryDatabase();
const h = hrefs({ publicUrl: 'https://d.example' });
const A = 'https://d.example/api';
const rels = (links: object) => Object.keys(links).sort();
const sorted = (list: string[]) => [...list].sort();

const OWNER = 'auth0|owner';
const EDITOR = 'auth0|editor';
const MEMBER = 'auth0|member';
const OUTSIDER = 'auth0|outsider';
const CREATOR = 'auth0|creator'; // may create workspaces, a member of none
const NOBODY = 'auth0|nobody'; // signed in, never logged in: no profile row

const W1 = randomUUID();
const W2 = randomUUID();
const ids = {
  job: randomUUID(),
  runningJob: randomUUID(),
  dataset: randomUUID(),
  channel: randomUUID(),
  privateList: randomUUID(),
  comment: randomUUID(),
  reply: randomUUID(),
  initialised: randomUUID(),
  invitation: randomUUID(),
  apiKey: randomUUID(),
  notification: randomUUID(),
  pipeline: randomUUID(),
  draftPipeline: randomUUID(),
  component: randomUUID(),
  store: randomUUID(),
  ownPlugin: randomUUID(),
  subscription: randomUUID(),
  alert: randomUUID(),
};
const FILE = 'uploads/sales 2024.csv';
const FILE_HREF = `${A}/workspaces/${W1}/resources/uploads/sales%202024.csv`;

const PROFILES: Record<string, { email: string; creates: boolean }> = {
  [OWNER]: { email: 'owner@x.org', creates: true },
  [EDITOR]: { email: 'editor@x.org', creates: false },
  [MEMBER]: { email: 'member@x.org', creates: false },
  [OUTSIDER]: { email: 'outsider@x.org', creates: true },
  [CREATOR]: { email: 'creator@x.org', creates: true },
};

function who(id: string, over: { verified?: boolean; profile?: boolean } = {}): Caller {
  const { verified = true, profile = id in PROFILES } = over;
  const email = PROFILES[id]?.email ?? 'nobody@x.org';
  const principal: Principal = { subject: id, email, emailVerified: verified, name: id, clientId: undefined, kind: 'user', issuedAt: 1_700_000_000 };
  const row = profile ? ({ id, name: id, email, can_create_workspaces: PROFILES[id]?.creates ?? false, credentials_changed_at: null } as ProfileRow) : undefined;
  return { kind: 'user', principal, profileId: id, profile: row, apiKeyId: undefined, prefetched: undefined };
}

const ctx = (caller: Caller, params?: Record<string, string | undefined>): AccessContext => ({ db: handle.db, h, caller, ...(params ? { params } : {}) });
const resolve = <K extends ResourceKind>(kind: K, caller: Caller, id: string, params?: Record<string, string | undefined>) => resolveAccess(kind, ctx(caller, params), id);

/** The refusal, as the error handler would see it: status and message. */
async function refusal(promise: Promise<unknown>): Promise<{ status: unknown; message: unknown }> {
  try {
    await promise;
  } catch (error) {
    const { status, message } = error as { status?: unknown; message?: unknown };
    return { status, message };
  }
  throw new Error('resolved, where a refusal was expected');
}
const notFound = (message: string) => ({ status: 404, message });

const OWN_PLUGIN_DEFINITION = {
  pluginType: 'EXTRACTOR', name: 'tap-own', variant: null, label: 'Own', namespace: 'tap_own', description: null, docs: null, repo: null,
  logoUrl: null, pipUrl: 'tap-own', executable: null, capabilities: [], commands: {}, settings: [], hidden: false,
};

beforeAll(async () => {
  const db = handle.db;
  await db.insertInto('profiles').values(Object.entries(PROFILES).map(([id, p]) => ({ id, name: id, email: p.email, can_create_workspaces: p.creates }))).execute();
  await db.insertInto('workspaces').values([W1, W2].map((id, i) => ({ id, name: `W${i + 1}`, status: 'READY', domains: JSON.stringify([]), app_properties: JSON.stringify({}) }))).execute();
  await db.insertInto('workspace_members').values([
    { workspace_id: W1, profile_id: OWNER, role: 'owner' as const },
    { workspace_id: W1, profile_id: EDITOR, role: 'editor' as const },
    { workspace_id: W1, profile_id: MEMBER, role: 'member' as const },
    { workspace_id: W2, profile_id: OUTSIDER, role: 'owner' as const },
  ]).execute();
  await db.insertInto('pipelines').values([
    { id: ids.pipeline, workspace_id: W1, name: 'P', draft: false, properties: '{}', schedule: null, data_components: '[]', actions: '[]', script: null, triggered_by: '[]' },
    { id: ids.draftPipeline, workspace_id: W1, name: 'D', draft: true, properties: '{}', schedule: null, data_components: '[]', actions: '[]', script: null, triggered_by: '[]' },
  ]).execute();
  await db.insertInto('jobs').values([
    { id: ids.job, workspace_id: W1, profile_id: OWNER, pipeline_id: null, type: 'WORKSPACE_DEPLOYMENT', status: 'COMPLETE', triggered_by: null, attempt: 1, max_attempts: 1, commit_id: null },
    { id: ids.runningJob, workspace_id: W1, profile_id: OWNER, pipeline_id: ids.pipeline, type: 'PIPELINE_RUN', status: 'RUNNING', triggered_by: null, attempt: 1, max_attempts: 1, commit_id: null },
  ]).execute();
  await db.insertInto('channels').values([
    { id: ids.channel, workspace_id: W1, name: 'Sales', description: null, picture: null, type: 'LIST', scope: 'WORKSPACE', creator_id: MEMBER },
    { id: ids.privateList, workspace_id: W1, name: 'Mine', description: null, picture: null, type: 'LIST', scope: 'PROFILE', creator_id: MEMBER },
  ]).execute();
  await db.insertInto('datasets').values({ id: ids.dataset, workspace_id: W1, channel_id: null, alias: null, title: 'Sales', description: null, description_content_type: 'text/markdown', questions: null, visualisation: null, metadata: null, raw_data: null, query: null }).execute();
  await db.insertInto('comments').values([
    { id: ids.comment, dataset_id: ids.dataset, parent_id: null, author_id: MEMBER, message: 'hello' },
    { id: ids.reply, dataset_id: ids.dataset, parent_id: ids.comment, author_id: EDITOR, message: 'hi' },
    { id: ids.initialised, dataset_id: ids.dataset, parent_id: null, author_id: MEMBER, message: null },
  ]).execute();
  await db.insertInto('invitations').values({ id: ids.invitation, workspace_id: W1, email: 'Outsider@X.org', status: 'PENDING', invited_by: OWNER }).execute();
  await db.insertInto('api_keys').values({ id: ids.apiKey, profile_id: MEMBER, name: 'k', client_id: 'client-of-member', secret_hash: 'x' }).execute();
  await db.insertInto('notifications').values({ id: ids.notification, profile_id: MEMBER, workspace_id: W1, type: 'COMMENT', message: 'm', resolved: false, actor_name: null, dataset_id: null, job_id: null }).execute();
  await db.insertInto('data_components').values({ id: ids.component, workspace_id: W1, name: 'C', plugin_type: 'EXTRACTOR', plugin_name: 'tap-nothing', variant: null, properties: '{}' }).execute();
  await db.insertInto('data_stores').values({ id: ids.store, workspace_id: W1, name: 'S', data_plugin: 'loaders/target-postgres', properties: '{}', status: 'READY', draft: false, is_default: false, managed: false }).execute();
  await db.insertInto('workspace_dataplugins').values({ id: ids.ownPlugin, workspace_id: W1, plugin_type: 'EXTRACTOR', name: 'tap-own', variant: '', definition: JSON.stringify(OWN_PLUGIN_DEFINITION) }).execute();
  await db.insertInto('subscriptions').values([
    { id: ids.subscription, profile_id: MEMBER, pipeline_id: null, dataset_id: ids.dataset, type: 'ALL' },
    { id: randomUUID(), profile_id: MEMBER, pipeline_id: null, channel_id: ids.channel, type: 'ALL' },
    { id: randomUUID(), profile_id: EDITOR, pipeline_id: ids.pipeline, type: 'ALL' },
  ]).execute();
  await db.insertInto('dataset_alerts').values({ id: ids.alert, dataset_id: ids.dataset, rule_id: null, job_id: null, detail: 'd' }).execute();
  await db.insertInto('workspace_resources').values({ workspace_id: W1, path: FILE, digest: 'ab', content_type: 'text/csv', size: 2, created_by: OWNER }).execute();
});

describe('resources found by id, in a workspace', () => {
  // Each: its 404 text, and for a workspace member the rels written out by hand.
  it('a job: the Lab, for admins; a member of the workspace is offered nothing; anyone else is told it does not exist', async () => {
    const owner = await resolve('job', who(OWNER), ids.job);
    expect(owner.job.id).toBe(ids.job);
    expect(owner.workspace.id).toBe(W1);
    expect(owner.role).toBe('owner');
    expect(owner.links).toEqual({
      [REL.self]: { href: `${A}/jobs/${ids.job}` },
      [REL.logs]: { href: `${A}/jobs/${ids.job}/logs` },
      [REL.deleteJob]: { href: `${A}/jobs/${ids.job}` },
    });
    expect(rels((await resolve('job', who(EDITOR), ids.runningJob)).links)).toEqual(sorted([REL.self, REL.logs, REL.withdrawJob]));
    const member = await resolve('job', who(MEMBER), ids.job);
    expect([member.role, member.links]).toEqual(['member', {}]);
    for (const id of [ids.job, randomUUID(), 'not-a-uuid']) expect(await refusal(resolve('job', who(OUTSIDER), id))).toEqual(notFound(`Job ${id} not found`));
    expect(await refusal(resolve('job', who(NOBODY), ids.job))).toEqual(notFound(`Job ${ids.job} not found`));
  });

  it('a dataset: members read and comment, admins also edit; the viewer’s own subscription shows', async () => {
    const member = await resolve('dataset', who(MEMBER), ids.dataset);
    expect([member.dataset.id, member.workspace.id, member.role]).toEqual([ids.dataset, W1, 'member']);
    const read = [REL.self, REL.likeDataset, REL.viewDataset, REL.related, REL.comments, REL.newComment, REL.alerts, REL.newMessage];
    expect(rels(member.links)).toEqual(sorted([...read, REL.deleteSubscription]));
    const editor = await resolve('dataset', who(EDITOR), ids.dataset);
    expect(rels(editor.links)).toEqual(sorted([...read, REL.addSubscription, REL.newAlert, REL.editDataset, REL.deleteDataset]));
    expect(editor.links[REL.editDataset]).toEqual({ href: `${A}/datasets/${ids.dataset}` });
    for (const id of [ids.dataset, randomUUID(), 'x']) expect(await refusal(resolve('dataset', who(OUTSIDER), id))).toEqual(notFound(`Dataset ${id} not found`));
  });

  it('a channel: seen by its workspace; a private list by its creator only, as if it did not exist', async () => {
    const member = await resolve('channel', who(MEMBER), ids.channel);
    expect([member.channel.id, member.workspace.id, member.role, member.subscribed]).toEqual([ids.channel, W1, 'member', true]);
    expect(rels(member.links)).toEqual(sorted([REL.self, REL.datasets, REL.updateChannel, REL.deleteChannel, REL.withdrawWorkspaceScope, REL.deleteSubscription]));
    const owner = await resolve('channel', who(OWNER), ids.channel);
    expect(owner.subscribed).toBe(false);
    expect(rels(owner.links)).toEqual(sorted([REL.self, REL.datasets, REL.updateChannel, REL.deleteChannel, REL.addSubscription]));
    expect(rels((await resolve('channel', who(MEMBER), ids.privateList)).links)).toContain(REL.addWorkspaceScope);
    for (const [caller, id] of [[who(OWNER), ids.privateList], [who(OUTSIDER), ids.channel], [who(MEMBER), randomUUID()], [who(MEMBER), 'x']] as const) {
      expect(await refusal(resolve('channel', caller, id))).toEqual(notFound(`Channel ${id} not found`));
    }
  });

  it('a comment: replies on a top-level one; an initialised comment exists for its author only', async () => {
    const member = await resolve('comment', who(MEMBER), ids.comment);
    expect([member.comment.id, member.workspace.id, member.role]).toEqual([ids.comment, W1, 'member']);
    expect(rels(member.links)).toEqual(sorted([REL.self, REL.history, REL.likeComment, REL.comments, REL.newComment, REL.updateComment, REL.deleteComment]));
    // an admin deletes another's reply; the reply's author edits it
    expect(rels((await resolve('comment', who(OWNER), ids.reply)).links)).toEqual(sorted([REL.self, REL.history, REL.likeComment, REL.deleteComment]));
    expect(rels((await resolve('comment', who(EDITOR), ids.reply)).links)).toEqual(sorted([REL.self, REL.history, REL.likeComment, REL.updateComment, REL.deleteComment]));
    expect((await resolve('comment', who(MEMBER), ids.initialised)).links).toEqual({ [REL.updateComment]: { href: `${A}/comments/${ids.initialised}` } });
    for (const [caller, id] of [[who(OWNER), ids.initialised], [who(OUTSIDER), ids.comment], [who(MEMBER), randomUUID()], [who(MEMBER), 'x']] as const) {
      expect(await refusal(resolve('comment', caller, id))).toEqual(notFound(`Comment ${id} not found`));
    }
  });

  it('a pipeline: facts and links for admins only; the running job, the subscription and the draft show', async () => {
    const editor = await resolve('pipeline', who(EDITOR), ids.pipeline);
    expect([editor.pipeline.id, editor.workspace.id, editor.role]).toEqual([ids.pipeline, W1, 'editor']);
    expect(editor.facts?.activeJobId).toBe(ids.runningJob);
    const common = [REL.self, REL.jobs, REL.metrics, REL.environment, REL.state, REL.streams, REL.lineage, REL.draftPipeline, REL.datacomponents, REL.dataplugins];
    expect(rels(editor.links)).toEqual(sorted([...common, REL.createJob, REL.withdrawJob, REL.verifyPipeline, REL.fullRefresh, REL.updatePipeline, REL.deleteSubscription]));
    expect(editor.links[REL.withdrawJob]).toEqual({ href: `${A}/jobs/${ids.runningJob}/stopped` });
    // the owner watches nothing; unverified, they start nothing
    expect(rels((await resolve('pipeline', who(OWNER, { verified: false }), ids.pipeline)).links)).toEqual(sorted([...common, REL.withdrawJob, REL.fullRefresh, REL.updatePipeline, REL.addSubscription]));
    expect(rels((await resolve('pipeline', who(OWNER), ids.draftPipeline)).links)).toEqual(sorted([...common, REL.createPipeline, REL.deletePipeline, REL.addSubscription]));
    const member = await resolve('pipeline', who(MEMBER), ids.pipeline);
    expect([member.role, member.facts, member.links]).toEqual(['member', undefined, {}]);
    for (const id of [ids.pipeline, randomUUID(), 'x']) expect(await refusal(resolve('pipeline', who(OUTSIDER), id))).toEqual(notFound(`Pipeline ${id} not found`));
  });

  it('a data component and a data store: admins only; saving a store (a check job) needs a verified email', async () => {
    const component = await resolve('dataComponent', who(EDITOR), ids.component);
    expect([component.component.id, component.workspace.id, component.role]).toEqual([ids.component, W1, 'editor']);
    expect(rels(component.links)).toEqual(sorted([REL.self, REL.updateDatacomponent, REL.authorizeDatacomponent, REL.disconnectDatacomponent, REL.deleteDatacomponent]));
    expect((await resolve('dataComponent', who(MEMBER), ids.component)).links).toEqual({});
    for (const id of [ids.component, randomUUID(), 'x']) expect(await refusal(resolve('dataComponent', who(OUTSIDER), id))).toEqual(notFound(`Data component ${id} not found`));

    const store = await resolve('dataStore', who(OWNER), ids.store);
    expect([store.store.id, store.workspace.id, store.role]).toEqual([ids.store, W1, 'owner']);
    expect(rels(store.links)).toEqual(sorted([REL.self, REL.updateDatastore, REL.makeDefault, REL.deleteDatastore]));
    expect(rels((await resolve('dataStore', who(OWNER, { verified: false }), ids.store)).links)).toEqual(sorted([REL.self, REL.makeDefault, REL.deleteDatastore]));
    expect((await resolve('dataStore', who(MEMBER), ids.store)).links).toEqual({});
    for (const id of [ids.store, randomUUID(), 'x']) expect(await refusal(resolve('dataStore', who(OUTSIDER), id))).toEqual(notFound(`Data store ${id} not found`));
  });

  it('an alert: every member reads it', async () => {
    const member = await resolve('alert', who(MEMBER), ids.alert);
    expect([member.alert.id, member.workspace.id, member.role]).toEqual([ids.alert, W1, 'member']);
    expect(member.links).toEqual({ [REL.self]: { href: `${A}/alerts/${ids.alert}` } });
    for (const id of [ids.alert, randomUUID(), 'x']) expect(await refusal(resolve('alert', who(OUTSIDER), id))).toEqual(notFound(`Alert ${id} not found`));
  });
});

describe('what is one person’s own', () => {
  it('a profile: one’s own, from the caller or the database; anyone else’s is never looked up', async () => {
    const own = await resolve('profile', who(OWNER), OWNER);
    expect([own.id, own.profile?.id]).toEqual([OWNER, OWNER]);
    expect(rels(own.links)).toEqual(sorted([REL.self, REL.updateProfile, REL.workspaces, REL.newWorkspace]));
    // a caller whose profile was not read with them: it is read here
    const read = await resolve('profile', who(MEMBER, { profile: false }), MEMBER);
    expect(read.profile).toMatchObject({ id: MEMBER, email: 'member@x.org' });
    expect(rels(read.links)).toEqual(sorted([REL.self, REL.updateProfile, REL.workspaces]));
    expect(await resolve('profile', who(MEMBER), OWNER)).toEqual({ id: OWNER, profile: undefined, links: {} });
    expect(await resolve('profile', who(MEMBER), 'auth0|made-up')).toEqual({ id: 'auth0|made-up', profile: undefined, links: {} });
    expect(await refusal(resolve('profile', who(NOBODY), NOBODY))).toEqual(notFound('Profile not found: sign in first'));
  });

  it('an API key: its owner’s; anyone else’s is a made-up id, and to "create" a free one', async () => {
    const own = await resolve('apikey', who(MEMBER), ids.apiKey);
    expect(own.key.id).toBe(ids.apiKey);
    expect(rels(own.links)).toEqual(sorted([REL.self, REL.updateApiKey, REL.deleteApiKey]));
    for (const [caller, id] of [[who(OWNER), ids.apiKey], [who(MEMBER), randomUUID()], [who(MEMBER), 'x']] as const) {
      expect(await refusal(resolve('apikey', caller, id))).toEqual(notFound(`API key ${id} not found`));
    }
    const existing = await resolve('apikeyOrDraft', who(MEMBER), ids.apiKey);
    expect([existing.id, existing.key?.id, rels(existing.links)]).toEqual([ids.apiKey, ids.apiKey, sorted([REL.self, REL.updateApiKey, REL.deleteApiKey])]);
    const someoneElses = await resolve('apikeyOrDraft', who(OWNER), ids.apiKey);
    expect(someoneElses).toEqual({ id: ids.apiKey, key: undefined, links: { [REL.createApiKey]: { href: `${A}/apikeys/${ids.apiKey}` } } });
    expect((await resolve('apikeyOrDraft', who(OWNER), 'x')).key).toBeUndefined();
  });

  it('a notification and a subscription: their owner’s alone', async () => {
    const notification = await resolve('notification', who(MEMBER), ids.notification);
    expect(notification.notification.id).toBe(ids.notification);
    expect(notification.links[REL.self]).toEqual({ href: `${A}/notifications/${ids.notification}` });
    for (const [caller, id] of [[who(OWNER), ids.notification], [who(MEMBER), randomUUID()], [who(MEMBER), 'x']] as const) {
      expect(await refusal(resolve('notification', caller, id))).toEqual(notFound(`Notification ${id} not found`));
    }
    const subscription = await resolve('subscription', who(MEMBER), ids.subscription);
    expect(subscription.subscription.id).toBe(ids.subscription);
    expect(rels(subscription.links)).toEqual(sorted([REL.self, REL.updateSubscription, REL.deleteSubscription]));
    for (const [caller, id] of [[who(OWNER), ids.subscription], [who(MEMBER), randomUUID()], [who(MEMBER), 'x']] as const) {
      expect(await refusal(resolve('subscription', caller, id))).toEqual(notFound(`Subscription ${id} not found`));
    }
  });

  it('an invitation: its invitee by verified address and the workspace’s members; nobody else', async () => {
    const invitee = await resolve('invitation', who(OUTSIDER), ids.invitation);
    expect([invitee.invitation.id, invitee.role]).toEqual([ids.invitation, undefined]);
    expect(rels(invitee.links)).toEqual(sorted([REL.self, REL.acceptInvitation]));
    const owner = await resolve('invitation', who(OWNER), ids.invitation);
    expect(owner.role).toBe('owner');
    expect(rels(owner.links)).toEqual(sorted([REL.self, REL.withdrawInvitation, REL.deleteInvitation]));
    expect(rels((await resolve('invitation', who(MEMBER), ids.invitation)).links)).toEqual([REL.self]);
    // without a profile the caller is a member of nothing: only the invitee's address would count
    for (const [caller, id] of [[who(CREATOR), ids.invitation], [who(OWNER, { profile: false }), ids.invitation], [who(OWNER), randomUUID()], [who(OWNER), 'x']] as const) {
      expect(await refusal(resolve('invitation', caller, id))).toEqual(notFound(`Invitation ${id} not found`));
    }
  });

  it('the root: every caller', async () => {
    expect((await resolve('root', who(NOBODY), '')).links[REL.self]).toEqual({ href: `${A}/` });
  });
});

describe('a workspace, or an id where one may be created', () => {
  it('a member gets the workspace; anyone else a 404, whether or not it exists', async () => {
    const member = await resolve('workspace', who(MEMBER), W1);
    expect([member.workspace.id, member.role]).toEqual([W1, 'member']);
    for (const id of [W1, randomUUID(), 'x']) expect(await refusal(resolve('workspace', who(OUTSIDER), id))).toEqual(notFound(`Workspace ${id} not found`));
  });

  it('an existing workspace to its member; a free id to anyone else, created only by a verified creator', async () => {
    const member = await resolve('workspaceOrDraft', who(MEMBER), W1);
    expect([member.id, member.workspace?.id, member.role]).toEqual([W1, W1, 'member']);
    const draft = (id: string) => ({ id, workspace: undefined, role: undefined, links: { [REL.createWorkspace]: { href: `${A}/workspaces/${id}` } } });
    expect(await resolve('workspaceOrDraft', who(OUTSIDER), W1)).toEqual(draft(W1));
    const free = randomUUID();
    expect(await resolve('workspaceOrDraft', who(CREATOR), free)).toEqual(draft(free));
    expect(await resolve('workspaceOrDraft', who(MEMBER), free)).toEqual({ id: free, workspace: undefined, role: undefined, links: {} });
    // unverified, a creator is told to verify for any id not theirs, taken or free; their own workspace is theirs still
    for (const id of [W1, free]) expect(await refusal(resolve('workspaceOrDraft', who(OUTSIDER, { verified: false }), id))).toMatchObject({ status: 403 });
    expect(await refusal(resolve('workspaceOrDraft', who(OUTSIDER, { verified: false }), free))).toEqual({ status: 403, message: expect.stringMatching(/verif/i) });
    expect((await resolve('workspaceOrDraft', who(OUTSIDER, { verified: false }), W2)).workspace?.id).toBe(W2);
    expect(await refusal(resolve('workspaceOrDraft', who(CREATOR), 'x'))).toEqual(notFound('Workspace x not found'));
  });

  it('a database that fails after the workspace is found: the failure, not a free id offered to create', async () => {
    // Only "not a member" makes a taken id a draft; an error while finding the caller's role is an error.
    let reads = 0;
    const failing = new Proxy(handle.db, {
      get(target, key) {
        if (key === 'selectFrom' && ++reads > 1) throw new Error('connection lost');
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    await expect(resolveAccess('workspaceOrDraft', { ...ctx(who(OUTSIDER)), db: failing }, W1)).rejects.toThrow('connection lost');
    expect(reads).toBe(2);
  });
});

describe('resources named by the workspace and the rest of the path', () => {
  it('a member, by profile id: admins promote and remove a plain member', async () => {
    const editor = await resolve('member', who(EDITOR), W1, { memberId: MEMBER });
    expect([editor.member.id, editor.workspace.id, editor.role]).toEqual([MEMBER, W1, 'editor']);
    expect(rels(editor.links)).toEqual(sorted([REL.self, REL.addAdministrator, REL.deleteMember]));
    expect(rels((await resolve('member', who(MEMBER), W1, { memberId: OWNER })).links)).toEqual([REL.self]);
    expect(await refusal(resolve('member', who(OWNER), W1, { memberId: OUTSIDER }))).toEqual(notFound(`Member ${OUTSIDER} not found`));
    expect(await refusal(resolve('member', who(OWNER), W1, {}))).toEqual(notFound('Member  not found'));
    expect(await refusal(resolve('member', who(OWNER), W1))).toEqual(notFound('Member  not found'));
    expect(await refusal(resolve('member', who(OUTSIDER), W1, { memberId: MEMBER }))).toEqual(notFound(`Workspace ${W1} not found`));
  });

  it('a file: members read it, admins replace and delete it; a path with no file is created by admins only', async () => {
    const member = await resolve('workspaceResource', who(MEMBER), W1, { '*': FILE });
    expect([member.resource.path, member.workspace.id, member.role]).toEqual([FILE, W1, 'member']);
    expect(member.links).toEqual({ [REL.self]: { href: FILE_HREF } });
    expect(rels((await resolve('workspaceResource', who(EDITOR), W1, { '*': FILE })).links)).toEqual(sorted([REL.self, REL.updateResource, REL.deleteResource]));
    for (const path of ['uploads/other.csv', '../etc', '']) expect(await refusal(resolve('workspaceResource', who(OWNER), W1, { '*': path }))).toEqual(notFound('Resource not found'));
    expect(await refusal(resolve('workspaceResource', who(OWNER), W1))).toEqual(notFound('Resource not found'));
    expect(await refusal(resolve('workspaceResource', who(OUTSIDER), W1, { '*': FILE }))).toEqual(notFound(`Workspace ${W1} not found`));

    const existing = await resolve('workspaceResourceOrDraft', who(EDITOR), W1, { '*': FILE });
    expect([existing.resource?.path, existing.path, existing.workspace.id, existing.role]).toEqual([FILE, { ok: true, path: FILE }, W1, 'editor']);
    expect(rels(existing.links)).toEqual(sorted([REL.self, REL.updateResource, REL.deleteResource]));
    const free = await resolve('workspaceResourceOrDraft', who(EDITOR), W1, { '*': 'new.csv' });
    expect([free.resource, free.links]).toEqual([undefined, { [REL.createResource]: { href: `${A}/workspaces/${W1}/resources/new.csv` } }]);
    const refused = await resolve('workspaceResourceOrDraft', who(EDITOR), W1, { '*': '/abs' });
    expect([refused.resource, refused.path.ok, refused.links]).toEqual([undefined, false, { [REL.createResource]: { href: `${A}/workspaces/${W1}/resources/{path}`, templated: true } }]);
    // no path at all is refused as an empty one: the template, not some path made up for it
    expect((await resolve('workspaceResourceOrDraft', who(EDITOR), W1)).links).toEqual({ [REL.createResource]: { href: `${A}/workspaces/${W1}/resources/{path}`, templated: true } });
    expect((await resolve('workspaceResourceOrDraft', who(MEMBER), W1, { '*': 'new.csv' })).links).toEqual({});
    expect(await refusal(resolve('workspaceResourceOrDraft', who(OUTSIDER), W1, { '*': 'new.csv' }))).toEqual(notFound(`Workspace ${W1} not found`));
  });

  it('a workspace’s plugin, by `:plural/:plugin`: a name with dashes, a variant after the last `--`', async () => {
    const own = await resolve('dataPlugin', who(EDITOR), W1, { plural: 'extractors', plugin: 'tap-own' });
    expect([own.plugin.name, own.plugin.variant, own.plugin.installed, own.workspace.id, own.role]).toEqual(['tap-own', null, true, W1, 'editor']);
    expect(own.links).toEqual({
      [REL.self]: { href: `${A}/workspaces/${W1}/dataplugins/extractors/tap-own` },
      [REL.deleteDataplugin]: { href: `${A}/workspaces/${W1}/dataplugins/extractors/tap-own` },
    });
    // an empty variant is no variant
    expect((await resolve('dataPlugin', who(EDITOR), W1, { plural: 'extractors', plugin: 'tap-own--' })).plugin.name).toBe('tap-own');
    expect((await resolve('dataPlugin', who(MEMBER), W1, { plural: 'extractors', plugin: 'tap-own' })).links).toEqual({});
    expect(await refusal(resolve('dataPlugin', who(EDITOR), W1, { plural: 'extractors', plugin: 'tap-own--x' }))).toEqual(notFound('Plugin extractors/tap-own--x not found'));
    expect(await refusal(resolve('dataPlugin', who(EDITOR), W1, { plural: 'taps', plugin: 'tap-own' }))).toEqual(notFound('Plugin taps/tap-own not found'));
    expect(await refusal(resolve('dataPlugin', who(EDITOR), W1))).toEqual(notFound('Plugin / not found'));
    expect(await refusal(resolve('dataPlugin', who(OUTSIDER), W1, { plural: 'extractors', plugin: 'tap-own' }))).toEqual(notFound(`Workspace ${W1} not found`));
  });
});

describe('the global plugin catalogue', () => {
  it('a workspace’s own plugin by its UUID: its admins change it, its members see it, nobody else does', async () => {
    const editor = await resolve('globalDataPlugin', who(EDITOR), ids.ownPlugin);
    expect(editor.plugin).toMatchObject({ kind: 'own', role: 'editor', own: { globalId: ids.ownPlugin, workspaceId: W1 } });
    expect(rels(editor.links)).toEqual(sorted([REL.self, REL.updateDataplugin, REL.deleteDataplugin, REL.workspace]));
    expect(editor.links[REL.workspace]).toEqual({ href: `${A}/workspaces/${W1}` });
    const member = await resolve('globalDataPlugin', who(MEMBER), ids.ownPlugin);
    expect([member.plugin.kind, member.links]).toEqual(['own', {}]);
    for (const [caller, id] of [[who(OUTSIDER), ids.ownPlugin], [who(EDITOR, { profile: false }), ids.ownPlugin], [who(EDITOR), randomUUID()], [who(EDITOR), 'extractors/no-such']] as const) {
      expect(await refusal(resolve('globalDataPlugin', caller, id))).toEqual(notFound(`Dataplugin ${id} not found`));
    }
  });

  it('a catalogue plugin by its id: read by anyone, changed by nobody', async () => {
    const id = 'extractors/tap-own'; // not in the catalogue: the own plugin is not found by its reference
    expect(await refusal(resolve('globalDataPlugin', who(EDITOR), id))).toEqual(notFound(`Dataplugin ${id} not found`));
    const shipped = await import('../plugins/catalogue').then((m) => m.cataloguePlugins()[0]!);
    const found = await resolve('globalDataPlugin', who(NOBODY), shipped.id);
    expect(found.plugin).toEqual({ kind: 'catalogue', plugin: shipped });
    expect(found.links).toEqual({ [REL.self]: { href: `${A}/dataplugins/${encodeURIComponent(shipped.id)}` } });
    const orDraft = await resolve('globalDataPluginOrDraft', who(NOBODY), shipped.id);
    expect([orDraft.id, orDraft.plugin?.kind, rels(orDraft.links)]).toEqual([shipped.id, 'catalogue', [REL.self]]);
  });

  it('a free UUID: created by a caller who administers a workspace; another workspace’s plugin is free to them', async () => {
    const free = randomUUID();
    const create = (id: string) => ({ [REL.createDataplugin]: { href: `${A}/dataplugins/${id}` } });
    expect(await resolve('globalDataPluginOrDraft', who(EDITOR), free)).toEqual({ id: free, plugin: undefined, links: create(free) });
    expect(await resolve('globalDataPluginOrDraft', who(OUTSIDER), ids.ownPlugin)).toEqual({ id: ids.ownPlugin, plugin: undefined, links: create(ids.ownPlugin) });
    expect(await resolve('globalDataPluginOrDraft', who(MEMBER), free)).toEqual({ id: free, plugin: undefined, links: {} });
    expect(await resolve('globalDataPluginOrDraft', who(EDITOR, { profile: false }), free)).toEqual({ id: free, plugin: undefined, links: {} });
    const own = await resolve('globalDataPluginOrDraft', who(EDITOR), ids.ownPlugin);
    expect([own.plugin?.kind, rels(own.links)]).toEqual(['own', sorted([REL.self, REL.updateDataplugin, REL.deleteDataplugin, REL.workspace])]);
    expect(await refusal(resolve('globalDataPluginOrDraft', who(EDITOR), 'extractors/no-such'))).toEqual(notFound('Dataplugin extractors/no-such not found'));
  });
});

describe('resolveCaller: who the token acts for, read from the database', () => {
  const token = (over: Partial<Principal> = {}): Principal => ({ subject: MEMBER, email: 'member@x.org', emailVerified: true, name: 'm', clientId: undefined, kind: 'user', issuedAt: 1_700_000_000, ...over });

  it('a person by the token’s subject, with the workspace the path names and their role there', async () => {
    const member = await resolveCaller(handle.db, token(), W1);
    expect(member).toMatchObject({ kind: 'user', profileId: MEMBER, apiKeyId: undefined, profile: { id: MEMBER, email: 'member@x.org' } });
    expect(member.prefetched).toMatchObject({ id: W1, workspace: { id: W1, name: 'W1' }, role: 'member' });
    // a workspace the person is no member of: read, without a role
    expect((await resolveCaller(handle.db, token({ subject: OUTSIDER }), W1)).prefetched).toMatchObject({ id: W1, workspace: { id: W1 }, role: undefined });
    // no workspace named: none read
    expect((await resolveCaller(handle.db, token())).prefetched).toBeUndefined();
    // signed in, never logged in: no profile, and nothing read with it
    expect(await resolveCaller(handle.db, token({ subject: NOBODY }), W1)).toMatchObject({ kind: 'user', profileId: NOBODY, profile: undefined, prefetched: undefined });
  });

  it('an API key by its client id, acting for the key’s owner; a key that is gone is refused (401)', async () => {
    const key = await resolveCaller(handle.db, token({ kind: 'client', subject: 'client-of-member@clients', clientId: 'client-of-member', email: undefined }), W1);
    expect(key).toMatchObject({ kind: 'client', profileId: MEMBER, apiKeyId: ids.apiKey, profile: { id: MEMBER }, prefetched: { id: W1, role: 'member' } });
    expect(await refusal(resolveCaller(handle.db, token({ kind: 'client', subject: 'gone@clients', clientId: 'gone', email: undefined })))).toEqual({ status: 401, message: 'The API key of this token no longer exists' });
  });
});

it('names every kind of resource a route may act on', () => {
  expect([...RESOURCE_KINDS].sort()).toEqual(sorted([
    'root', 'profile', 'workspace', 'workspaceOrDraft', 'job', 'dataset', 'channel', 'invitation', 'comment', 'apikey', 'apikeyOrDraft',
    'notification', 'pipeline', 'dataComponent', 'dataStore', 'dataPlugin', 'globalDataPlugin', 'globalDataPluginOrDraft', 'subscription',
    'member', 'alert', 'workspaceResource', 'workspaceResourceOrDraft',
  ]));
});
