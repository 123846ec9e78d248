import { encodeResourcePath } from '../../src/domain/workspaceResources';
import type { Config } from '../config';

/** Absolute URLs of the API's resources: every `_links` href is built here, so paths live in one place. */
export interface Hrefs {
  root(): string;
  profile(id: string): string;
  /** the caller's own profiles (one: their own) */
  profiles(): string;
  profileLogin(id: string): string;
  workspaces(): string;
  workspace(id: string): string;
  workspacePart(id: string, part: string): string;
  job(id: string): string;
  jobLogs(id: string): string;
  notifications(): string;
  notification(id: string): string;
  invitations(email?: string): string;
  invitation(id: string): string;
  invitationPart(id: string, part: string): string;
  notificationPart(id: string, part: string): string;
  notificationSettings(): string;
  apiKeys(): string;
  apiKey(id: string): string;
  dataset(id: string): string;
  datasetData(id: string): string;
  datasetPart(id: string, part: string): string;
  channel(id: string): string;
  comment(id: string): string;
  commentPart(id: string, part: string): string;
  channelPart(id: string, part: string): string;
  pipeline(id: string): string;
  pipelinePart(id: string, part: string): string;
  /** where an initialised, unsaved pipeline is created (PUT), or saved as a draft with `/draft` */
  newPipeline(workspaceId: string, id: string): string;
  jobStopped(id: string): string;
  dataComponent(id: string): string;
  dataStore(id: string): string;
  /** a workspace's plugin by its id `{plural type}/{name}[--{variant}]` */
  dataPlugin(workspaceId: string, pluginId: string): string;
  /** the global plugin catalogue (the Matatika reference's /api/dataplugins) */
  dataPlugins(): string;
  /** a plugin of that catalogue by its global id (a catalogue plugin's `{plural type}/{name}--{variant}` as one segment, a workspace's own by its UUID) */
  globalDataPlugin(id: string): string;
  /** the token exchange of OAuth connect; `{provider}` is chosen by the client from the authorization url */
  oauthToken(provider: string): string;
  dataComponentCredentials(id: string): string;
  subscriptions(): string;
  subscription(id: string): string;
  /** a member of a workspace, by their profile id */
  member(workspaceId: string, profileId: string): string;
  /** the same member as an administrator (PUT adds, DELETE withdraws) */
  administrator(workspaceId: string, profileId: string): string;
  alert(id: string): string;
  tag(workspaceId: string, tagId: string): string;
  /** the global plugin catalogue as a Meltano discovery.yml */
  discovery(): string;
  /** a workspace resource by its path (each segment encoded, the slashes kept) */
  resource(workspaceId: string, path: string): string;
}

export function hrefs(config: Pick<Config, 'publicUrl'>): Hrefs {
  const api = `${config.publicUrl}/api`;
  const seg = encodeURIComponent;
  return {
    root: () => `${api}/`,
    profile: (id) => `${api}/profiles/${seg(id)}`,
    profiles: () => `${api}/profiles`,
    profileLogin: (id) => `${api}/profiles/${seg(id)}/login`,
    workspaces: () => `${api}/workspaces`,
    workspace: (id) => `${api}/workspaces/${seg(id)}`,
    workspacePart: (id, part) => `${api}/workspaces/${seg(id)}/${part}`,
    job: (id) => `${api}/jobs/${seg(id)}`,
    jobLogs: (id) => `${api}/jobs/${seg(id)}/logs`,
    notifications: () => `${api}/notifications`,
    notification: (id) => `${api}/notifications/${seg(id)}`,
    invitations: (email) => (email ? `${api}/invitations?email=${seg(email)}` : `${api}/invitations`),
    invitation: (id) => `${api}/invitations/${seg(id)}`,
    invitationPart: (id, part) => `${api}/invitations/${seg(id)}/${part}`,
    notificationPart: (id, part) => `${api}/notifications/${seg(id)}/${part}`,
    notificationSettings: () => `${api}/notification-settings`,
    apiKeys: () => `${api}/apikeys`,
    apiKey: (id) => `${api}/apikeys/${seg(id)}`,
    dataset: (id) => `${api}/datasets/${seg(id)}`,
    datasetData: (id) => `${api}/datasets/${seg(id)}/data`,
    datasetPart: (id, part) => `${api}/datasets/${seg(id)}/${part}`,
    channel: (id) => `${api}/channels/${seg(id)}`,
    comment: (id) => `${api}/comments/${seg(id)}`,
    commentPart: (id, part) => `${api}/comments/${seg(id)}/${part}`,
    channelPart: (id, part) => `${api}/channels/${seg(id)}/${part}`,
    pipeline: (id) => `${api}/pipelines/${seg(id)}`,
    pipelinePart: (id, part) => `${api}/pipelines/${seg(id)}/${part}`,
    newPipeline: (workspaceId, id) => `${api}/workspaces/${seg(workspaceId)}/pipelines/${seg(id)}`,
    jobStopped: (id) => `${api}/jobs/${seg(id)}/stopped`,
    dataComponent: (id) => `${api}/datacomponents/${seg(id)}`,
    dataStore: (id) => `${api}/datastores/${seg(id)}`,
    dataPlugin: (workspaceId, pluginId) => `${api}/workspaces/${seg(workspaceId)}/dataplugins/${pluginId.split('/').map(seg).join('/')}`,
    dataPlugins: () => `${api}/dataplugins`,
    globalDataPlugin: (id) => `${api}/dataplugins/${seg(id)}`,
    oauthToken: (provider) => `${api}/tokens/${provider === '{provider}' ? provider : seg(provider)}/token`,
    dataComponentCredentials: (id) => `${api}/datacomponents/${seg(id)}/credentials`,
    subscriptions: () => `${api}/subscriptions`,
    subscription: (id) => `${api}/subscriptions/${seg(id)}`,
    member: (workspaceId, profileId) => `${api}/workspaces/${seg(workspaceId)}/members/${seg(profileId)}`,
    administrator: (workspaceId, profileId) => `${api}/workspaces/${seg(workspaceId)}/administrators/${seg(profileId)}`,
    alert: (id) => `${api}/alerts/${seg(id)}`,
    tag: (workspaceId, tagId) => `${api}/workspaces/${seg(workspaceId)}/tags/${seg(tagId)}`,
    discovery: () => `${api}/discovery.yml`,
    resource: (workspaceId, path) => `${api}/workspaces/${seg(workspaceId)}/resources/${path === '{path}' ? path : encodeResourcePath(path)}`,
  };
}
