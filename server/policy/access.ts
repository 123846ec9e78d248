import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import { forbidden, notFound, HttpError } from '../http/errors';
import type { Links } from '../http/hal';
import { findApiKey, type ApiKeyRow } from '../repositories/apiKeys';
import { getDataComponent, type DataComponentRow } from '../repositories/dataComponents';
import { pluginTypeOfPlural } from '../../src/domain/discovery';
import { findOwnPlugin, workspacePlugin, type OwnPlugin, type WorkspacePlugin } from '../repositories/dataPlugins';
import { cataloguePlugins, type CataloguePlugin } from '../plugins/catalogue';
import { getDataStore, type DataStoreRow } from '../repositories/dataStores';
import { findChannel, type ChannelRow } from '../repositories/channels';
import { findComment, type CommentRow } from '../repositories/comments';
import { findDataset, type DatasetRow } from '../repositories/datasets';
import { isUuid } from '../repositories/ids';
import { findInvitation, type InvitationRow } from '../repositories/invitations';
import { findJob, type JobRow } from '../repositories/jobs';
import { findNotification, type NotificationRow } from '../repositories/notifications';
import { pipelineFacts, type PipelineFacts } from '../repositories/pipelineFacts';
import { getPipeline, type PipelineRow } from '../repositories/pipelines';
import { findProfile, type ProfileRow } from '../repositories/profiles';
import { administeredWorkspaceIds, findWorkspace, memberRole, type MemberRow, type WorkspaceRow } from '../repositories/workspaces';
import { findMember } from '../repositories/members';
import { findSubscription, isSubscribed, type SubscriptionView } from '../repositories/subscriptions';
import { findAlert, type AlertWithWorkspace } from '../repositories/alerts';
import { findResource, type ResourceMeta } from '../repositories/workspaceResources';
import { checkResourcePath, type ResourcePathCheck } from '../../src/domain/workspaceResources';
import { mayRun, VERIFY_EMAIL_TO_RUN, type Caller } from './caller';
import { workspaceAccess, type Offer } from './guard';
import type { Hrefs } from './hrefs';
import {
  alertLinks,
  memberLinks,
  subscriptionLinks,
  apiKeyDraftLinks,
  awaitsVerificationToCreate,
  apiKeyLinks,
  channelLinks,
  commentLinks,
  dataComponentLinks,
  dataPluginLinks,
  datasetLinks,
  globalDataPluginDraftLinks,
  globalDataPluginLinks,
  datasetViewer,
  dataStoreLinks,
  isAdminRole,
  mayComment,
  invitationLinks,
  jobLinks,
  notificationLinks,
  pipelineLinks,
  profileLinks,
  resourceDraftLinks,
  resourceLinks,
  rootLinks,
  workspaceDraftLinks,
} from './links';

// Every route names the resource it acts on; this module finds that resource and renders the links
// the caller is offered on it. The route guard then demands a relation of exactly that set (403).
// A resource the caller may not see at all — one in a workspace they are not a member of, or one
// that offers them nothing (somebody else's key, notification, subscription or private list) — is
// answered exactly as an id that names nothing is (404, `unseen`): to a stranger, real and made-up
// ids look the same (docs/decisions.md, "Existence oracles (issue 36)").

interface Resolved extends Offer {
  /** the links this caller is offered on the resource */
  links: Links;
}

export interface AccessByResource {
  root: Resolved;
  profile: Resolved & { profile: ProfileRow | undefined; id: string };
  workspace: Resolved & { workspace: WorkspaceRow; role: MemberRole };
  /** an existing workspace, or an initialised id that only 'create workspace' may turn into one */
  workspaceOrDraft: Resolved & { workspace: WorkspaceRow | undefined; role: MemberRole | undefined; id: string };
  job: Resolved & { job: JobRow; workspace: WorkspaceRow; role: MemberRole };
  dataset: Resolved & { dataset: DatasetRow; workspace: WorkspaceRow; role: MemberRole };
  /** a private list of someone else is offered nothing (403), like a channel of another workspace */
  channel: Resolved & { channel: ChannelRow; workspace: WorkspaceRow; role: MemberRole; subscribed: boolean };
  invitation: Resolved & { invitation: InvitationRow; role: MemberRole | undefined };
  /** an initialised comment (no message yet) exists for its author only: 404 to anyone else */
  comment: Resolved & { comment: CommentRow; workspace: WorkspaceRow; role: MemberRole };
  apikey: Resolved & { key: ApiKeyRow };
  /** an existing key, or a draft id that only 'create apikey' may turn into one */
  apikeyOrDraft: Resolved & { key: ApiKeyRow | undefined; id: string };
  notification: Resolved & { notification: NotificationRow };
  /** facts are loaded for admins only: nobody else is offered anything on a pipeline */
  pipeline: Resolved & { pipeline: PipelineRow; workspace: WorkspaceRow; role: MemberRole; facts: PipelineFacts | undefined };
  dataComponent: Resolved & { component: DataComponentRow; workspace: WorkspaceRow; role: MemberRole };
  dataStore: Resolved & { store: DataStoreRow; workspace: WorkspaceRow; role: MemberRole };
  /** a workspace's plugin, by the workspace id and the path's `:plural/:plugin` ('extractors', 'tap-github--meltanolabs') */
  dataPlugin: Resolved & { plugin: WorkspacePlugin; workspace: WorkspaceRow; role: MemberRole };
  /**
   * A plugin of the global catalogue (/api/dataplugins/{id}): a catalogue plugin by its id
   * (`extractors/tap-x--variant`, one path segment), or a workspace's own by its UUID, seen only by
   * members of that workspace (and offered something only to its admins).
   */
  globalDataPlugin: Resolved & { plugin: GlobalPlugin };
  /** the same, or — for a UUID that names no plugin the caller's workspaces have — a draft that only 'create dataplugin' may turn into one */
  globalDataPluginOrDraft: Resolved & { plugin: GlobalPlugin | undefined; id: string };
  /** the caller's own subscription; anyone else's is offered nothing (403) */
  subscription: Resolved & { subscription: SubscriptionView };
  /** a member, by the workspace id and the path's `:memberId` (their profile id) */
  member: Resolved & { member: MemberRow; workspace: WorkspaceRow; role: MemberRole };
  alert: Resolved & { alert: AlertWithWorkspace; workspace: WorkspaceRow; role: MemberRole };
  /** a workspace's file, by the workspace id and the path's wildcard (`/workspaces/:id/resources/*`) */
  workspaceResource: Resolved & { resource: ResourceMeta; workspace: WorkspaceRow; role: MemberRole };
  /** an existing file, or a path (checked, maybe refused) that only 'create resource' may write */
  workspaceResourceOrDraft: Resolved & { resource: ResourceMeta | undefined; path: ResourcePathCheck; workspace: WorkspaceRow; role: MemberRole };
}

export type ResourceKind = keyof AccessByResource;

export interface AccessContext {
  db: Db;
  h: Hrefs;
  caller: Caller;
  /** the request's other path parameters, for resources named by more than one */
  params?: Readonly<Record<string, string | undefined>>;
}

/** A plugin of the global catalogue: one the server ships, or one a workspace keeps as its own. */
export type GlobalPlugin = { kind: 'catalogue'; plugin: CataloguePlugin } | { kind: 'own'; own: OwnPlugin; role: MemberRole };

/**
 * The plugin a global id names for this caller: a catalogue plugin by its id, a workspace's own by
 * its UUID when the caller is a member of that workspace; undefined otherwise (made up, or another
 * workspace's, which look the same).
 */
async function globalPlugin(db: Db, caller: Caller, id: string): Promise<GlobalPlugin | undefined> {
  const shipped = cataloguePlugins().find((p) => p.id === id);
  if (shipped) return { kind: 'catalogue', plugin: shipped };
  const own = isUuid(id) ? await findOwnPlugin(db, id) : undefined;
  const role = own && caller.profile ? await memberRole(db, own.workspaceId, caller.profileId) : undefined;
  return own && role ? { kind: 'own', own, role } : undefined;
}

function globalPluginLinks(h: Hrefs, found: GlobalPlugin): Links {
  return found.kind === 'catalogue'
    ? globalDataPluginLinks(h, { id: found.plugin.id, workspaceId: null, canDelete: false }, undefined)
    : globalDataPluginLinks(h, { id: found.own.globalId, workspaceId: found.own.workspaceId, canDelete: found.own.plugin.canDelete }, found.role);
}

type Resolver<K extends ResourceKind> = (ctx: AccessContext, id: string) => Promise<AccessByResource[K]>;

/** A workspace the caller cannot see, where a draft stands in for it (workspaceOrDraft). */
class Unseen extends HttpError {
  constructor() {
    super(404, 'unseen');
  }
}

/** The one answer to an id the caller cannot see, whether or not it names anything. */
function unseen(what: string, id: string): () => HttpError {
  return () => notFound(`${what} ${id} not found`);
}

async function found<T>(id: string, what: string, load: (id: string) => Promise<T | undefined>): Promise<T> {
  const row = isUuid(id) ? await load(id) : undefined;
  if (row === undefined) throw unseen(what, id)();
  return row;
}

const pipelineResolver: Resolver<'pipeline'> = async ({ db, h, caller }, id) => {
  const pipeline = await found(id, 'Pipeline', (pipelineId) => getPipeline(db, pipelineId));
  const { workspace, role } = await workspaceAccess(db, h, caller, pipeline.workspace_id, unseen('Pipeline', id));
  const facts = isAdminRole(role) ? (await pipelineFacts(db, [pipeline], caller.profileId)).get(pipeline.id) : undefined;
  const state = { draft: pipeline.draft, complete: facts?.complete ?? false, activeJobId: facts?.activeJobId, subscribed: facts?.subscription !== undefined, runs: mayRun(caller) };
  return { pipeline, workspace, role, facts, links: pipelineLinks(h, pipeline, role, state) };
};

/** The workspace first (403 outside it), then the resource its path names, if the path could name one. */
async function lookUpResource({ db, h, caller, params }: AccessContext, id: string) {
  const { workspace, role } = await workspaceAccess(db, h, caller, id);
  const path = checkResourcePath(params?.['*'] ?? '');
  const resource = path.ok ? await findResource(db, workspace.id, path.path) : undefined;
  return { workspace, role, path, resource };
}

const workspaceResourceResolver: Resolver<'workspaceResource'> = async (ctx, id) => {
  const { workspace, role, resource } = await lookUpResource(ctx, id);
  if (resource === undefined) throw notFound('Resource not found');
  return { resource, workspace, role, links: resourceLinks(ctx.h, resource, role) };
};

const workspaceResourceOrDraftResolver: Resolver<'workspaceResourceOrDraft'> = async (ctx, id) => {
  const { workspace, role, path, resource } = await lookUpResource(ctx, id);
  const links = resource ? resourceLinks(ctx.h, resource, role) : resourceDraftLinks(ctx.h, workspace.id, path.ok ? path.path : undefined, role);
  return { resource, path, workspace, role, links };
};

const resolvers: { [K in ResourceKind]: Resolver<K> } = {
  workspaceResource: workspaceResourceResolver,
  workspaceResourceOrDraft: workspaceResourceOrDraftResolver,

  root: ({ h, caller }) => Promise.resolve({ links: rootLinks(h, caller) }),

  async profile({ db, h, caller }, id) {
    // Another person's profile is never looked up: it is a 403 whether or not it exists.
    if (id !== caller.profileId) return { id, profile: undefined, links: {} };
    const profile = caller.profile ?? (await findProfile(db, id));
    if (!profile) throw notFound('Profile not found: sign in first');
    return { id, profile, links: profileLinks(h, caller, profile) };
  },

  // the access itself, not a copy: its links are rendered only if something reads them
  workspace: ({ db, h, caller }, id) => workspaceAccess(db, h, caller, id),

  async workspaceOrDraft({ db, h, caller }, id) {
    if (!isUuid(id)) throw unseen('Workspace', id)();
    const existing = await findWorkspace(db, id);
    // Someone who may create workspaces once verified is told to verify for any id that is not a
    // workspace of theirs, taken or not, so the answer says nothing about which ids exist.
    if (awaitsVerificationToCreate(caller) && (!existing || !(await memberRole(db, id, caller.profileId)))) throw forbidden(VERIFY_EMAIL_TO_RUN);
    if (!existing) return { id, workspace: undefined, role: undefined, links: workspaceDraftLinks(h, caller, id) };
    try {
      return Object.assign(await workspaceAccess(db, h, caller, id, () => new Unseen()), { id });
    } catch (error) {
      // A workspace the caller is not in is, to them, a free id: only creating at it can tell (a 409).
      if (!(error instanceof Unseen)) throw error;
      return { id, workspace: undefined, role: undefined, links: workspaceDraftLinks(h, caller, id) };
    }
  },

  async job({ db, h, caller }, id) {
    const job = await found(id, 'Job', (jobId) => findJob(db, jobId));
    const { workspace, role } = await workspaceAccess(db, h, caller, job.workspace_id, unseen('Job', id));
    return { job, workspace, role, links: jobLinks(h, job, role) };
  },

  async dataset({ db, h, caller }, id) {
    const dataset = await found(id, 'Dataset', (datasetId) => findDataset(db, datasetId, caller.profileId));
    const { workspace, role } = await workspaceAccess(db, h, caller, dataset.workspace_id, unseen('Dataset', id));
    return { dataset, workspace, role, links: datasetLinks(h, dataset, datasetViewer(role, dataset)) };
  },

  async channel({ db, h, caller }, id) {
    const channel = await found(id, 'Channel', (channelId) => findChannel(db, channelId));
    const { workspace, role } = await workspaceAccess(db, h, caller, channel.workspace_id, unseen('Channel', id));
    const subscribed = await isSubscribed(db, { column: 'channel_id', id: channel.id }, caller.profileId);
    return { channel, workspace, role, subscribed, links: channelLinks(h, channel, { role, profileId: caller.profileId, subscribed }) };
  },

  async comment({ db, h, caller }, id) {
    const comment = await found(id, 'Comment', (commentId) => findComment(db, commentId));
    const { workspace, role } = await workspaceAccess(db, h, caller, comment.workspace_id, unseen('Comment', id));
    if (comment.message === null && comment.author_id !== caller.profileId) throw unseen('Comment', id)();
    return { comment, workspace, role, links: commentLinks(h, comment, { role, profileId: caller.profileId, mayComment: mayComment(role, comment.read_only) }) };
  },

  async invitation({ db, h, caller }, id) {
    const invitation = await found(id, 'Invitation', (invitationId) => findInvitation(db, invitationId));
    const role = caller.profile ? await memberRole(db, invitation.workspace_id, caller.profileId) : undefined;
    return { invitation, role, links: invitationLinks(h, caller, invitation, role) };
  },

  async apikey({ db, h, caller }, id) {
    const key = await found(id, 'API key', (keyId) => findApiKey(db, keyId));
    return { key, links: apiKeyLinks(h, caller, key) };
  },

  async apikeyOrDraft({ db, h, caller }, id) {
    const found = isUuid(id) ? await findApiKey(db, id) : undefined;
    // somebody else's key is, to the caller, a free id: only creating at it can tell (a 409)
    const key = found?.profile_id === caller.profileId ? found : undefined;
    return { id, key, links: key ? apiKeyLinks(h, caller, key) : apiKeyDraftLinks(h, caller, id) };
  },

  async notification({ db, h, caller }, id) {
    const notification = await found(id, 'Notification', (notificationId) => findNotification(db, notificationId));
    return { notification, links: notificationLinks(h, caller, notification) };
  },

  pipeline: pipelineResolver,

  async dataComponent({ db, h, caller }, id) {
    const component = await found(id, 'Data component', (componentId) => getDataComponent(db, componentId));
    const { workspace, role } = await workspaceAccess(db, h, caller, component.workspace_id, unseen('Data component', id));
    return { component, workspace, role, links: dataComponentLinks(h, component, role) };
  },

  async dataStore({ db, h, caller }, id) {
    const store = await found(id, 'Data store', (storeId) => getDataStore(db, storeId));
    const { workspace, role } = await workspaceAccess(db, h, caller, store.workspace_id, unseen('Data store', id));
    return { store, workspace, role, links: dataStoreLinks(h, store, role, mayRun(caller)) };
  },

  async dataPlugin({ db, h, caller, params }, id) {
    // The workspace first: outside it, no plugin name is confirmed or denied.
    const { workspace, role } = await workspaceAccess(db, h, caller, id);
    const pluginType = pluginTypeOfPlural(params?.plural ?? '');
    const { name, variant } = splitPluginSegment(params?.plugin ?? '');
    const plugin = pluginType ? await workspacePlugin(db, workspace.id, { pluginType, name, variant }) : undefined;
    if (plugin === undefined) throw notFound(`Plugin ${params?.plural ?? ''}/${params?.plugin ?? ''} not found`);
    return { plugin, workspace, role, links: dataPluginLinks(h, workspace.id, plugin, role) };
  },

  async globalDataPlugin({ db, h, caller }, id) {
    const plugin = await globalPlugin(db, caller, id);
    if (!plugin) throw unseen('Dataplugin', id)();
    return { plugin, links: globalPluginLinks(h, plugin) };
  },

  async globalDataPluginOrDraft({ db, h, caller }, id) {
    const plugin = await globalPlugin(db, caller, id);
    if (plugin) return { id, plugin, links: globalPluginLinks(h, plugin) };
    // A new plugin is created at a UUID only; to the caller another workspace's plugin is a free id,
    // and creating at it is a 409 (docs/decisions.md, "Existence oracles").
    if (!isUuid(id)) throw unseen('Dataplugin', id)();
    const administers = caller.profile !== undefined && (await administeredWorkspaceIds(db, caller.profileId)).length > 0;
    return { id, plugin: undefined, links: globalDataPluginDraftLinks(h, id, administers) };
  },

  async subscription({ db, h, caller }, id) {
    const subscription = await found(id, 'Subscription', (subscriptionId) => findSubscription(db, subscriptionId));
    return { subscription, links: subscriptionLinks(h, caller, subscription) };
  },

  async member({ db, h, caller, params }, id) {
    // The workspace first: outside it, nobody's membership is confirmed or denied.
    const { workspace, role } = await workspaceAccess(db, h, caller, id);
    const memberId = params?.memberId ?? '';
    const member = memberId === '' ? undefined : await findMember(db, workspace.id, memberId);
    if (member === undefined) throw notFound(`Member ${memberId} not found`);
    return { member, workspace, role, links: memberLinks(h, workspace.id, member, role) };
  },

  async alert({ db, h, caller }, id) {
    const alert = await found(id, 'Alert', (alertId) => findAlert(db, alertId));
    const { workspace, role } = await workspaceAccess(db, h, caller, alert.workspace_id, unseen('Alert', id));
    return { alert, workspace, role, links: alertLinks(h, alert) };
  },
};

/** `tap-github--meltanolabs` → name and variant; the name may itself hold single dashes. */
function splitPluginSegment(segment: string): { name: string; variant: string | null } {
  const at = segment.lastIndexOf('--');
  return at > 0 ? { name: segment.slice(0, at), variant: segment.slice(at + 2) || null } : { name: segment, variant: null };
}

/**
 * Resources whose links depend on who asks, not only on a workspace role: offered nothing, they are
 * not the caller's to see, and answer as a made-up id. (A workspace's resources offer every member
 * at least 'self'; someone else's profile is never looked up and is refused alike whether or not it exists.)
 */
const UNSEEN_WHEN_OFFERED_NOTHING: Partial<Record<ResourceKind, string>> = {
  channel: 'Channel',
  invitation: 'Invitation',
  apikey: 'API key',
  notification: 'Notification',
  subscription: 'Subscription',
};

export async function resolveAccess<K extends ResourceKind>(kind: K, ctx: AccessContext, id: string): Promise<AccessByResource[K]> {
  const access = await resolvers[kind](ctx, id);
  const what = UNSEEN_WHEN_OFFERED_NOTHING[kind];
  if (what !== undefined && Object.keys(access.links).length === 0) throw unseen(what, id)();
  return access;
}

export const RESOURCE_KINDS = Object.keys(resolvers) as ResourceKind[];
