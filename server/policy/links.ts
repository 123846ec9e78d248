import { memberCommentsReadOnly } from '../../src/domain/comments';
import { isActiveJob } from '../../src/domain/jobs';
import { isSetupTaskJob } from '../../src/domain/setupTasks';
import { REL } from '../../src/domain/relations';
import type { MemberRole } from '../db/schema';
import { links, type Links } from '../http/hal';
import { newId } from '../repositories/ids';
import { DEFAULT_STORE_PLUGIN } from '../stores/defaultStore';
import { mayRun, verifiedEmail, type Caller } from './caller';
import type { Hrefs } from './hrefs';

// Every `_links` set of the API is rendered here, from who the caller is and what they may do.
// Routes authorise by asking for a relation in these same sets (see guard.ts), so what the
// client is offered and what the server allows cannot drift apart.

export const isAdminRole = (role: MemberRole): boolean => role === 'owner' || role === 'editor';

/**
 * Minting an API key needs a person with a proven address and a profile to own the key;
 * a client-credentials token (itself an API key) never mints another.
 */
function canMintApiKeys(caller: Caller): boolean {
  return caller.kind === 'user' && caller.principal.emailVerified && caller.profile !== undefined;
}

/**
 * Only a person whose profile carries the owner's mark creates workspaces (spec 000 §6), and only
 * with a verified email (issue 36): a workspace's first job runs at once.
 */
function canCreateWorkspaces(caller: Caller): boolean {
  return caller.kind === 'user' && caller.profile?.can_create_workspaces === true && mayRun(caller);
}

/**
 * A person who would be offered 'create workspace' once their email is verified: told so (403)
 * rather than refused in silence (access.ts).
 */
export function awaitsVerificationToCreate(caller: Caller): boolean {
  return caller.kind === 'user' && caller.profile?.can_create_workspaces === true && !mayRun(caller);
}

/**
 * The rels whose request queues work on the caller's behalf: a workspace's first job, a pipeline's
 * run or check, a deployment, a data store's connection check. They are offered only to a caller
 * who may run things (mayRun); a refused request for one of them tells an unverified caller how
 * to get them (guard.ts).
 */
export const RUN_RELS: ReadonlySet<string> = new Set([
  REL.newWorkspace,
  REL.createWorkspace,
  REL.createJob,
  REL.verifyPipeline,
  REL.createDeployment,
  REL.newDatastore,
  REL.updateDatastore,
]);

/** An initialised workspace not created yet: its PUT creates it, for owners only. */
export function workspaceDraftLinks(h: Hrefs, caller: Caller, id: string): Links {
  return links({ [REL.createWorkspace]: canCreateWorkspaces(caller) && h.workspace(id) });
}

export function rootLinks(h: Hrefs, caller: Caller): Links {
  const email = verifiedEmail(caller);
  return links({
    [REL.self]: h.root(),
    [REL.profile]: caller.profile ? h.profile(caller.profileId) : null,
    [REL.workspaces]: h.workspaces(),
    [REL.apikeys]: h.apiKeys(),
    [REL.notifications]: h.notifications(),
    // The caller's own subscriptions, of every workspace (a caller without a profile has none)
    [REL.subscriptions]: caller.profile ? h.subscriptions() : null,
    // Noise control is kept per profile: a caller without one (an API key) has none to change.
    [REL.notificationSettings]: caller.profile ? h.notificationSettings() : null,
    [REL.updateNotificationSettings]: caller.profile ? h.notificationSettings() : null,
    [REL.invitations]: email ? h.invitations(email) : null,
    // The invitations the caller sent, in the workspaces they still administer (GET /invitations without `email`)
    [REL.sentInvitations]: caller.profile ? h.invitations() : null,
    // The reference's 'profiles': a page holding the caller's own profile only (other people's addresses are never listed)
    [REL.profiles]: caller.profile ? h.profiles() : null,
    // Initialising a list before its workspace is chosen (the reference's POST /channels/{id}): nothing is stored
    [REL.newChannel]: caller.profile ? h.channel(newId()) : null,
    [REL.newApiKey]: canMintApiKeys(caller) ? h.apiKeys() : null,
    // The global plugin catalogue (the Matatika reference's GET /api/discovery.yml): every caller reads it.
    [REL.discovery]: h.discovery(),
    // The same catalogue as dataplugins (GET /api/dataplugins), with the caller's workspaces' own plugins
    [REL.dataplugins]: h.dataPlugins(),
    // A workspace's own plugin starts as a draft; whether it may be created is the draft's link
    // (the caller must administer a workspace), so initialising is offered to any person
    [REL.newDataplugin]: caller.profile ? h.dataPlugins() : null,
    // Initialising a workspace (POST) is for owners: the same mark as the profile's 'new workspace'.
    [REL.newWorkspace]: canCreateWorkspaces(caller) ? h.workspaces() : null,
    // The first sign-in creates the profile of the token's own subject; an API key signs in as nobody.
    [REL.login]: caller.kind === 'user' ? h.profileLogin(caller.principal.subject) : null,
  });
}

/** A profile is seen only by itself; 'new workspace' marks the owner (spec 000 section 6) once verified. */
export function profileLinks(h: Hrefs, caller: Caller, profile: { id: string; can_create_workspaces: boolean }): Links {
  if (profile.id !== caller.profileId) return {};
  return links({
    [REL.self]: h.profile(profile.id),
    [REL.updateProfile]: h.profile(profile.id),
    [REL.workspaces]: h.workspaces(),
    [REL.newWorkspace]: profile.can_create_workspaces && mayRun(caller) ? h.workspaces() : null,
  });
}

/**
 * Reads (channels, questions, feed, search, tags, members, invitations) for every member; the Lab
 * (pipelines, data components, the plugin catalogue, data stores) and the workspace's
 * administration (jobs, inviting, 'update delete workspace') for owners and editors only. What
 * queues a job (RUN_RELS) needs `runs` too: the caller may run things (mayRun).
 */
export function workspaceLinks(h: Hrefs, workspace: { id: string }, role: MemberRole, runs: boolean, newChannelId: string = newId()): Links {
  const admin = isAdminRole(role);
  const part = (name: string) => h.workspacePart(workspace.id, name);
  return links({
    [REL.self]: h.workspace(workspace.id),
    [REL.channels]: part('channels'),
    [REL.questions]: part('questions'),
    [REL.feed]: part('feed'),
    [REL.search]: part('search'),
    [REL.tags]: part('tags'),
    // Reading (spec 002 Starred, News): the caller's own stars and news in this workspace
    [REL.liked]: part('liked'),
    [REL.news]: part('news'),
    [REL.newsChannels]: part('news/channels'),
    [REL.newsTags]: part('news/tags'),
    [REL.members]: part('members'),
    [REL.administrators]: part('administrators'),
    // the caller's own notifications about this workspace (the reference's workspace notifications)
    [REL.notifications]: part('notifications'),
    // Watching the whole workspace: POST subscribes or changes the type (one per member), removal
    // is the subscription's own 'delete subscription'
    [REL.addSubscription]: part('subscriptions'),
    // Who watches what here is the admins' business: members see their own under the root's 'subscriptions'
    [REL.memberSubscriptions]: admin && part('members/subscriptions'),
    [REL.invitations]: part('invitations'),
    [REL.createInvitation]: admin && part('invitations'),
    [REL.jobs]: admin && part('jobs'),
    [REL.updateDeleteWorkspace]: admin && h.workspace(workspace.id),
    [REL.createDeployment]: admin && runs && part('deployments'),
    [REL.pipelines]: admin && part('pipelines'),
    [REL.newPipeline]: admin && part('pipelines'),
    [REL.datacomponents]: admin && part('datacomponents'),
    [REL.createDatacomponent]: admin && part('datacomponents'),
    [REL.dataplugins]: admin && part('dataplugins'),
    [REL.availableDataplugins]: admin && part('availabledataplugins'),
    [REL.publishDiscovery]: admin && part('discovery.yml'),
    [REL.discovery]: admin && part('discovery.yml'),
    [REL.validatePipeline]: admin && part('pipelines/validation'),
    [REL.datastores]: admin && part('datastores'),
    [REL.datastore]: admin && part('datastore'),
    [REL.datasets]: part('datasets'),
    [REL.publishDataset]: admin && part('datasets'),
    [REL.previewDataset]: admin && part('datasets/preview'),
    [REL.tables]: admin && part('tables'),
    // OpenLineage out (issue 41): what the workspace's runs and publishes told the collector
    [REL.lineageEvents]: admin && part('lineage/events'),
    // Every member keeps lists of their own; the href carries the new list's id (PUT creates it).
    [REL.createChannel]: part(`channels/${newChannelId}`),
    // a store saved to be used has its connection checked by a job (a draft does not, but is rare
    // enough not to deserve a rel of its own)
    [REL.newDatastore]: admin && runs && part('datastores'),
    // Files the workspace keeps (spec 002 'resources', DownloadResource): every member downloads them.
    [REL.resources]: part('resources'),
    // several files in one body, all or nothing (the reference's POST): admins, who write them one by one too
    [REL.publishResources]: admin && part('resources'),
  });
}

/** A workspace resource: every member reads (downloads) it; admins replace and delete it. */
export function resourceLinks(h: Hrefs, resource: { workspace_id: string; path: string }, role: MemberRole): Links {
  const admin = isAdminRole(role);
  const href = h.resource(resource.workspace_id, resource.path);
  return links({
    [REL.self]: href,
    [REL.updateResource]: admin && href,
    [REL.deleteResource]: admin && href,
  });
}

/**
 * A path no resource has yet: only an admin may create one there (PUT). A path that could never be
 * a resource's is offered as the template, and its PUT answers why (400).
 */
export function resourceDraftLinks(h: Hrefs, workspaceId: string, path: string | undefined, role: MemberRole): Links {
  return links({ [REL.createResource]: isAdminRole(role) && h.resource(workspaceId, path ?? '{path}') });
}

/** What decides a saved pipeline's links beyond the caller's role. */
export interface PipelineLinkState {
  draft: boolean;
  /** every required setting of its components has a value */
  complete: boolean;
  /** its QUEUED or RUNNING job */
  activeJobId: string | undefined;
  /** the caller watches it */
  subscribed: boolean;
  /** the caller may run things (mayRun) */
  runs: boolean;
}

/**
 * The Lab is for admins: others are offered nothing. A draft cannot run ('Draft imports
 * disabled'), an incomplete pipeline cannot start ('Import configuration incomplete'); while a job
 * is active it may be withdrawn and the pipeline is not deleted. A draft is saved to run through
 * 'create pipeline', a pipeline that runs through 'update pipeline'; both may go back to draft.
 * 'create job' stays offered while a job is active: a second start is a 409, not a missing link.
 */
export function pipelineLinks(h: Hrefs, pipeline: { id: string; workspace_id: string }, role: MemberRole, state: PipelineLinkState): Links {
  if (!isAdminRole(role)) return {};
  const part = (name: string) => h.pipelinePart(pipeline.id, name);
  return links({
    [REL.self]: h.pipeline(pipeline.id),
    [REL.jobs]: part('jobs'),
    [REL.metrics]: part('metrics'),
    [REL.environment]: part('environment'),
    [REL.createJob]: state.runs && !state.draft && state.complete && part('jobs'),
    [REL.withdrawJob]: state.activeJobId !== undefined && h.jobStopped(state.activeJobId),
    [REL.verifyPipeline]: state.runs && !state.draft && part('verification'),
    [REL.state]: part('state'),
    [REL.streams]: part('streams'),
    // what its runs feed: tables, datasets and dashboards (issue 41)
    [REL.lineage]: part('lineage'),
    // offered while a job runs as well: clearing under a run is a 409 saying why, not a missing link
    [REL.fullRefresh]: !state.draft && part('state'),
    [REL.updatePipeline]: !state.draft && h.pipeline(pipeline.id),
    [REL.createPipeline]: state.draft && h.pipeline(pipeline.id),
    [REL.draftPipeline]: part('draft'),
    [REL.deletePipeline]: state.activeJobId === undefined && h.pipeline(pipeline.id),
    [REL.addSubscription]: !state.subscribed && part('subscriptions'),
    [REL.deleteSubscription]: state.subscribed && part('subscriptions'),
    [REL.datacomponents]: h.workspacePart(pipeline.workspace_id, 'datacomponents'),
    [REL.dataplugins]: h.workspacePart(pipeline.workspace_id, 'dataplugins'),
  });
}

/** An initialised pipeline (POST 'new pipeline'): not stored yet, so it can only be created or saved as a draft. */
export function pipelineDraftLinks(h: Hrefs, workspaceId: string, id: string, role: MemberRole): Links {
  if (!isAdminRole(role)) return {};
  return links({
    [REL.createPipeline]: h.newPipeline(workspaceId, id),
    [REL.draftPipeline]: `${h.newPipeline(workspaceId, id)}/draft`,
    [REL.datacomponents]: h.workspacePart(workspaceId, 'datacomponents'),
    [REL.dataplugins]: h.workspacePart(workspaceId, 'dataplugins'),
  });
}

export function dataComponentLinks(h: Hrefs, component: { id: string }, role: MemberRole): Links {
  if (!isAdminRole(role)) return {};
  return links({
    [REL.self]: h.dataComponent(component.id),
    [REL.updateDatacomponent]: h.dataComponent(component.id),
    // POST {grant_type, code, code_verifier, redirect_uri, scope, component} to the provider's token url
    [REL.authorizeDatacomponent]: h.oauthToken('{provider}'),
    [REL.disconnectDatacomponent]: h.dataComponentCredentials(component.id),
    // offered while a pipeline uses it too: the DELETE is then a 409 naming those pipelines
    [REL.deleteDatacomponent]: h.dataComponent(component.id),
  });
}

/** What decides a data store's links beyond the caller's role. */
interface DataStoreLinkState {
  id: string;
  workspace_id: string;
  data_plugin: string;
  is_default: boolean;
  managed: boolean;
  draft: boolean;
  status: string;
}

/**
 * The embedded (managed) store has no settings to change and is never removed; the default store
 * is not removed either. Only a checked store (READY) may become the default — pipelines load
 * into it from then on — and the current default is not offered 'make-default'.
 */
export function dataStoreLinks(h: Hrefs, store: DataStoreLinkState, role: MemberRole, runs: boolean): Links {
  if (!isAdminRole(role)) return {};
  return links({
    [REL.self]: h.dataStore(store.id),
    // saving checks the connection again, in a job: for callers who may run things (mayRun)
    [REL.updateDatastore]: runs && !store.managed && h.dataStore(store.id),
    [REL.makeDefault]: !store.is_default && !store.draft && store.status === 'READY' && `${h.dataStore(store.id)}/default`,
    [REL.deleteDatastore]: !store.is_default && !store.managed && h.dataStore(store.id),
    // the embedded store is where dataset SQL reads: its page browses the same tables
    [REL.tables]: store.data_plugin === DEFAULT_STORE_PLUGIN && h.workspacePart(store.workspace_id, 'tables'),
  });
}

/**
 * A plugin of the catalogue as one workspace sees it: admins may install it while it is available
 * and remove it while its canDelete holds (installed, not built in, no component made from it).
 */
export function dataPluginLinks(h: Hrefs, workspaceId: string, plugin: { id: string; installed: boolean; canDelete: boolean }, role: MemberRole): Links {
  if (!isAdminRole(role)) return {};
  const href = h.dataPlugin(workspaceId, plugin.id);
  return links({
    [REL.self]: href,
    [REL.addDataplugin]: !plugin.installed && href,
    [REL.deleteDataplugin]: plugin.canDelete && href,
  });
}

/**
 * A plugin of the global catalogue (GET /api/dataplugins). The catalogue's plugins ship with the
 * server: every caller reads them, nobody changes them. A workspace's own plugin (published by
 * discovery.yml, a deployment or 'create dataplugin') is its admins' alone, as the workspace's
 * plugin list is: they read and change it; a plain member of that workspace is offered nothing.
 */
export function globalDataPluginLinks(h: Hrefs, plugin: { id: string; workspaceId: string | null; canDelete: boolean }, role: MemberRole | undefined): Links {
  if (plugin.workspaceId === null) return links({ [REL.self]: h.globalDataPlugin(plugin.id) });
  if (role === undefined || !isAdminRole(role)) return {};
  return links({
    [REL.self]: h.globalDataPlugin(plugin.id),
    [REL.updateDataplugin]: h.globalDataPlugin(plugin.id),
    // as in the workspace's list: while no data component of the workspace is made from it
    [REL.deleteDataplugin]: plugin.canDelete && h.globalDataPlugin(plugin.id),
    [REL.workspace]: h.workspace(plugin.workspaceId),
  });
}

/** An initialised plugin (POST 'new dataplugin'): its PUT creates it in a workspace the caller administers, if they administer one. */
export function globalDataPluginDraftLinks(h: Hrefs, id: string, administersAWorkspace: boolean): Links {
  return links({ [REL.createDataplugin]: administersAWorkspace && h.globalDataPlugin(id) });
}

/**
 * Jobs belong to the Lab: only the workspace's admins see them, their logs, and may delete them.
 * A setup task (PROFILE_*) runs no process: it cannot be withdrawn, and deleting it dismisses it
 * whatever its status.
 */
export function jobLinks(h: Hrefs, job: { id: string; status: string; type: string }, role: MemberRole): Links {
  const admin = isAdminRole(role);
  const task = isSetupTaskJob(job);
  return links({
    [REL.self]: admin && h.job(job.id),
    [REL.logs]: admin && h.jobLogs(job.id),
    [REL.deleteJob]: admin && (task || !isActiveJob(job)) && h.job(job.id),
    [REL.withdrawJob]: admin && !task && isActiveJob(job) && h.jobStopped(job.id),
  });
}

/** Who looks at a dataset: their role in its workspace, and whether they starred and watch it. */
export interface DatasetViewer {
  role: MemberRole;
  liked: boolean;
  subscribed: boolean;
  /** may write comments: admins always, members unless MEMBER_COMMENTS_READ_ONLY */
  mayComment: boolean;
}

/** Admins always write comments; members unless the workspace made comments read-only for them. */
export function mayComment(role: MemberRole, readOnlyProperty: string | null | undefined): boolean {
  return isAdminRole(role) || !memberCommentsReadOnly(readOnlyProperty);
}

/** Whether the viewer starred and watches a dataset (its row's viewer columns), and may comment on it. */
export function datasetViewer(role: MemberRole, dataset: { liked: boolean; subscription_type: string | null; comments_read_only?: string | null }): DatasetViewer {
  return { role, liked: dataset.liked, subscribed: dataset.subscription_type !== null, mayComment: mayComment(role, dataset.comments_read_only) };
}

/**
 * Every member reads, stars (PUT/DELETE on 'like dataset'), counts a view of, watches, reads the
 * alerts (and alert rules) of and finds related datasets; admins edit, delete and set alert rules. 'data' is offered while it has a query or rows
 * (holds_rows: raw data that is a JSON list; other raw data, a mermaid diagram's text, is no data to
 * fetch, and the page draws it from the dataset itself).
 */
export function datasetLinks(h: Hrefs, dataset: { id: string; holds_rows: boolean; query: string | null }, viewer: DatasetViewer): Links {
  const admin = isAdminRole(viewer.role);
  const part = (name: string) => h.datasetPart(dataset.id, name);
  return links({
    [REL.self]: h.dataset(dataset.id),
    [REL.data]: (dataset.query !== null || dataset.holds_rows) && h.datasetData(dataset.id),
    [REL.likeDataset]: part('like'),
    [REL.viewDataset]: part('view'),
    [REL.addSubscription]: !viewer.subscribed && part('subscriptions'),
    [REL.deleteSubscription]: viewer.subscribed && part('subscriptions'),
    [REL.related]: part('related'),
    [REL.comments]: part('comments'),
    [REL.newComment]: viewer.mayComment && part('comments'),
    [REL.alerts]: part('alerts'),
    // An alert raised by hand goes to every watcher: admins raise them, as they set the rules
    [REL.newAlert]: admin && part('alerts'),
    // A note about the dataset to another member (the reference's Dataset Message)
    [REL.newMessage]: part('messages'),
    // Rules are checked after a refresh, which only a dataset with a query has.
    [REL.alertRules]: dataset.query !== null && part('alert-rules'),
    [REL.updateAlertRules]: admin && dataset.query !== null && part('alert-rules'),
    // where its columns come from: the tables its query reads, the runs that loaded them (issue 41)
    [REL.lineage]: dataset.query !== null && part('lineage'),
    [REL.editDataset]: admin && h.dataset(dataset.id),
    [REL.deleteDataset]: admin && h.dataset(dataset.id),
  });
}

/** Who looks at a comment: their role in its workspace, and whether they may write comments there. */
interface CommentViewer {
  role: MemberRole;
  profileId: string;
  mayComment: boolean;
}

/**
 * Members read, like and see the history of a comment; its author edits it while they may write;
 * its author (while they may write) or an admin deletes it. Replies go one level deep: a top-level
 * comment offers 'new comment' (reply) and 'comments' (its replies). An initialised comment (no
 * message yet) is its author's alone, offered only the PUT that creates it.
 */
export function commentLinks(h: Hrefs, comment: { id: string; dataset_id: string; parent_id: string | null; author_id: string; message: string | null }, viewer: CommentViewer): Links {
  const author = comment.author_id === viewer.profileId;
  if (comment.message === null) return links({ [REL.updateComment]: author && viewer.mayComment && h.comment(comment.id) });
  const topLevel = comment.parent_id === null;
  return links({
    [REL.self]: h.comment(comment.id),
    [REL.history]: h.commentPart(comment.id, 'history'),
    [REL.likeComment]: h.commentPart(comment.id, 'like'),
    [REL.comments]: topLevel && `${h.datasetPart(comment.dataset_id, 'comments')}?parentId=${encodeURIComponent(comment.id)}`,
    [REL.newComment]: topLevel && viewer.mayComment && h.comment(comment.id),
    [REL.updateComment]: author && viewer.mayComment && h.comment(comment.id),
    [REL.deleteComment]: ((author && viewer.mayComment) || isAdminRole(viewer.role)) && h.comment(comment.id),
  });
}

/** Who looks at a channel: their role, and whether they created it. */
export interface ChannelViewer {
  role: MemberRole;
  profileId: string;
  /** whether they watch it; unknown in lists, where subscribing (an upsert) stays offered */
  subscribed?: boolean;
}

/** A private (PROFILE) list is its creator's alone; a list changes by its creator or an admin, a source channel by an admin. */
function channelVisible(channel: { scope: string; creator_id: string | null }, viewer: ChannelViewer): boolean {
  return channel.scope !== 'PROFILE' || channel.creator_id === viewer.profileId;
}

export function canChangeChannel(channel: { type: string; creator_id: string | null }, viewer: ChannelViewer): boolean {
  // A source channel (datasets name it when published) is the workspace's: its admins rename it.
  return isAdminRole(viewer.role) || (channel.type === 'LIST' && channel.creator_id === viewer.profileId);
}

/** A list leaves the workspace by whoever may change it; a source channel goes only with its datasets' source. */
export function canDeleteChannel(channel: { type: string; creator_id: string | null }, viewer: ChannelViewer): boolean {
  return channel.type === 'LIST' && canChangeChannel(channel, viewer);
}

/**
 * 'datasets' lists it (and, under 'update channel', PUT/DELETE `{datasets}/{datasetId}` change a
 * list). Only a list's creator moves it between private (PROFILE) and public (WORKSPACE): an admin
 * making someone's private list public would publish what its creator kept to themselves.
 */
export function channelLinks(h: Hrefs, channel: { id: string; type: string; scope: string; creator_id: string | null }, viewer: ChannelViewer): Links {
  if (!channelVisible(channel, viewer)) return {};
  const creatorsList = channel.type === 'LIST' && channel.creator_id === viewer.profileId;
  return links({
    [REL.self]: h.channel(channel.id),
    [REL.datasets]: h.channelPart(channel.id, 'datasets'),
    [REL.updateChannel]: canChangeChannel(channel, viewer) && h.channel(channel.id),
    [REL.deleteChannel]: canDeleteChannel(channel, viewer) && h.channel(channel.id),
    [REL.addWorkspaceScope]: creatorsList && channel.scope === 'PROFILE' && h.channelPart(channel.id, 'scope/workspace'),
    [REL.withdrawWorkspaceScope]: creatorsList && channel.scope === 'WORKSPACE' && h.channelPart(channel.id, 'scope/profile'),
    // Watching a channel: news of its datasets (subscribing again only changes the type)
    [REL.addSubscription]: viewer.subscribed !== true && h.channelPart(channel.id, 'subscriptions'),
    [REL.deleteSubscription]: viewer.subscribed === true && h.channelPart(channel.id, 'subscriptions'),
  });
}

/**
 * An initialised list (POST 'new channel'), not stored: its PUT creates it in the caller's default
 * workspace, offered while they are a member there (`memberOf`: that workspace's id); any member may keep lists.
 */
export function channelDraftLinks(h: Hrefs, id: string, memberOf: string | undefined): Links {
  return links({ [REL.createChannel]: memberOf !== undefined && h.workspacePart(memberOf, `channels/${encodeURIComponent(id)}`) });
}

/** A key is visible and changeable by the profile that owns it, and by nobody else. */
export function apiKeyLinks(h: Hrefs, caller: Caller, key: { id: string; profile_id: string }): Links {
  if (key.profile_id !== caller.profileId) return {};
  return links({
    [REL.self]: h.apiKey(key.id),
    [REL.updateApiKey]: h.apiKey(key.id),
    [REL.deleteApiKey]: h.apiKey(key.id),
  });
}

/** The draft's only link saves it; it is offered only to callers whose root carries 'new apikey'. */
export function apiKeyDraftLinks(h: Hrefs, caller: Caller, id: string): Links {
  return links({ [REL.createApiKey]: canMintApiKeys(caller) && h.apiKey(id) });
}

/** A person's own noise settings: read and replaced by themselves only. */
export function notificationSettingsLinks(h: Hrefs, caller: Caller): Links {
  if (!caller.profile) return {};
  return links({ [REL.self]: h.notificationSettings(), [REL.updateNotificationSettings]: h.notificationSettings() });
}

/** A notification is its recipient's alone: only they read it, mark it read (while unread) and delete it. */
export function notificationLinks(h: Hrefs, caller: Caller, notification: { id: string; profile_id: string; resolved: boolean }): Links {
  if (notification.profile_id !== caller.profileId) return {};
  return links({
    [REL.self]: h.notification(notification.id),
    [REL.resolveNotification]: !notification.resolved && h.notificationPart(notification.id, 'resolved'),
    [REL.deleteNotification]: h.notification(notification.id),
  });
}

/**
 * The invitee (proven by their verified address) may read it and, once signed in, accept it while
 * it is pending — and again once accepted, which answers it unchanged, so a repeated click is
 * harmless. Members of the workspace may read it.
 */
export function invitationLinks(
  h: Hrefs,
  caller: Caller,
  invitation: { id: string; email: string; status: string; invitee_role: MemberRole | null },
  callerRole: MemberRole | undefined,
): Links {
  const invitee = verifiedEmail(caller) === invitation.email.trim().toLowerCase();
  const acceptable = invitation.status === 'PENDING' || invitation.status === 'ACCEPTED';
  // The workspace's admins manage its invitations (spec 002 §4): withdraw unless already revoked,
  // delete unless accepted, and for an accepted invitee who is no owner, the admin toggle.
  const admin = callerRole !== undefined && isAdminRole(callerRole);
  const accepted = invitation.status === 'ACCEPTED';
  return links({
    [REL.self]: (invitee || callerRole !== undefined) && h.invitation(invitation.id),
    [REL.acceptInvitation]: invitee && caller.profile !== undefined && acceptable && h.invitation(invitation.id),
    // the reference's path; PUT …/withdrawal, where it led before, still answers
    [REL.withdrawInvitation]: admin && invitation.status !== 'REVOKED' && h.invitationPart(invitation.id, 'revoked'),
    [REL.deleteInvitation]: admin && !accepted && h.invitation(invitation.id),
    [REL.addAdministrator]: admin && accepted && invitation.invitee_role === 'member' && h.invitationPart(invitation.id, 'administrator'),
    [REL.withdrawAdministrator]: admin && accepted && invitation.invitee_role === 'editor' && h.invitationPart(invitation.id, 'administrator'),
  });
}

/** A subscription is its owner's alone: only they read it, change its type and remove it. */
export function subscriptionLinks(h: Hrefs, caller: Caller, subscription: { id: string; profile_id: string }): Links {
  if (subscription.profile_id !== caller.profileId) return {};
  return links({
    [REL.self]: h.subscription(subscription.id),
    [REL.updateSubscription]: h.subscription(subscription.id),
    [REL.deleteSubscription]: h.subscription(subscription.id),
  });
}

/**
 * Whether `viewer` may remove `member` from the workspace: an owner removes editors and members,
 * an editor plain members only; nobody removes an owner (a workspace keeps its owners) or an equal.
 */
export function canRemoveMember(viewer: MemberRole, member: MemberRole): boolean {
  if (viewer === 'owner') return member !== 'owner';
  return viewer === 'editor' && member === 'member';
}

/**
 * A member as the workspace's members see one another. Admins make a plain member an
 * administrator (editor) and withdraw it again, as the invitation's admin toggle does; an owner is
 * an administrator for good. Removal follows canRemoveMember.
 */
export function memberLinks(h: Hrefs, workspaceId: string, member: { id: string; role: MemberRole }, viewer: MemberRole): Links {
  const admin = isAdminRole(viewer);
  return links({
    [REL.self]: h.member(workspaceId, member.id),
    [REL.addAdministrator]: admin && member.role === 'member' && h.administrator(workspaceId, member.id),
    [REL.withdrawAdministrator]: admin && member.role === 'editor' && h.administrator(workspaceId, member.id),
    [REL.deleteMember]: canRemoveMember(viewer, member.role) && h.member(workspaceId, member.id),
  });
}

/** An alert is read by every member of its dataset's workspace (as the dataset's 'alerts'). */
export function alertLinks(h: Hrefs, alert: { id: string }): Links {
  return links({ [REL.self]: h.alert(alert.id) });
}

/** An initialised alert: its PUT raises it, for the admins who were offered 'new alert'. */
export function alertDraftLinks(h: Hrefs, datasetId: string, id: string, role: MemberRole): Links {
  return links({ [REL.createAlert]: isAdminRole(role) && h.datasetPart(datasetId, `alerts/${encodeURIComponent(id)}`) });
}

/** A dataset message is changed (PUT again) by its sender only; an initialised one is the caller's. */
export function datasetMessageLinks(h: Hrefs, caller: Caller, message: { id: string; dataset_id: string; sender_id: string }): Links {
  return links({ [REL.createMessage]: message.sender_id === caller.profileId && h.datasetPart(message.dataset_id, `messages/${encodeURIComponent(message.id)}`) });
}

/** A tag is read by every member of its workspace (as the workspace's 'tags'). */
export function tagLinks(h: Hrefs, workspaceId: string, tagId: string): Links {
  return links({ [REL.self]: h.tag(workspaceId, tagId) });
}
