import { z } from 'zod';
import { halResource, pagedCollection } from './hal';

// Resource bodies of spec 000 section 3 (and what the shell needs of spec 002). Every object is
// loose so fields this client does not know yet survive a round trip; optional fields accept
// null because the server serialises absent values as null.

/**
 * What the server must send for a schema: its known fields, without the open index signature of a
 * loose object. Server bodies are typed with it, so a field renamed on either side fails to compile.
 */
type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
export type Wire<S extends z.ZodType> = KnownKeys<z.input<S>>;

export const rootSchema = halResource({});
export type Root = z.infer<typeof rootSchema>;

const idRef = z.looseObject({ id: z.string() });

export const profileSchema = halResource({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  defaultWorkspace: idRef.nullish(),
  featuresDisabled: z.string().nullish(),
});
export type Profile = z.infer<typeof profileSchema>;

export const workspaceSchema = halResource({
  id: z.string(),
  name: z.string(),
  imageUrl: z.string().nullish(),
  defaultEnvironment: z.string().nullish(),
  default: z.boolean().nullish(),
  appProperties: z.record(z.string(), z.string()).nullish(),
  status: z.string().nullish(),
  domains: z.array(z.string()).nullish(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const memberSchema = halResource({
  id: z.string(),
  name: z.string(),
  email: z.string().nullish(),
  handle: z.string().nullish(),
  role: z.string().nullish(),
});
export type Member = z.infer<typeof memberSchema>;

export const invitationSchema = halResource({
  id: z.string().nullish(),
  email: z.string(),
  status: z.string().nullish(),
  created: z.string().nullish(),
  workspace: z.looseObject({ id: z.string(), name: z.string().nullish() }).nullish(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const notificationSchema = halResource({
  id: z.string(),
  type: z.string(),
  message: z.string().nullish(),
  resolved: z.boolean(),
  created: z.string(),
  lastModified: z.string().nullish(),
  actor: z.looseObject({ name: z.string() }).nullish(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const JOB_STATUSES = ['SKIPPED', 'COMPLETE', 'ERROR', 'QUEUED', 'RUNNING', 'STOPPED'] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** Job types named in spec 000; the type field stays an open string (PROFILE_* types exist too). */
export const JOB_TYPES = ['PIPELINE_CONFIG', 'PIPELINE_ENV', 'PIPELINE_RUN', 'PIPELINE_VERIFY', 'WORKSPACE_INIT'] as const;

export const jobSchema = halResource({
  id: z.string(),
  type: z.string(),
  status: jobStatusSchema,
  created: z.string(),
  startTime: z.string().nullish(),
  endTime: z.string().nullish(),
  triggeredBy: z.string().nullish(),
  attempt: z.int().nullish(),
  maxAttempts: z.int().nullish(),
  exitCode: z.int().nullish(),
  commitId: z.string().nullish(),
  _embedded: z.looseObject({ profile: z.looseObject({ email: z.string() }).nullish() }).nullish(),
});
export type Job = z.infer<typeof jobSchema>;

/** One line of a job's log stream (newline-delimited JSON). */
export const logEntrySchema = z.looseObject({
  sequence: z.int(),
  timestamp: z.string(),
  message: z.string(),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

export const apiKeySchema = halResource({
  id: z.string(),
  name: z.string().nullish(),
  clientId: z.string().nullish(),
  profileId: z.string().nullish(),
  created: z.string().nullish(),
  accessToken: z.string().nullish(),
  clientSecret: z.string().nullish(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const questionAnswerSchema = halResource({
  description: z.string().nullish(),
  alias: z.string().nullish(),
  id: z.string().nullish(),
  title: z.string().nullish(),
});
export type QuestionAnswer = z.infer<typeof questionAnswerSchema>;

export const tagSchema = z.looseObject({ id: z.string().nullish(), name: z.string(), usage: z.int().nullish() });
export type Tag = z.infer<typeof tagSchema>;

export const datasetSchema = halResource({
  id: z.string(),
  workspaceId: z.string().nullish(),
  alias: z.string().nullish(),
  title: z.string(),
  description: z.string().nullish(),
  descriptionContentType: z.string().nullish(),
  questions: z.string().nullish(),
  // The visualisation, metadata and rawData are JSON text, parsed by whatever needs them.
  visualisation: z.string().nullish(),
  metadata: z.string().nullish(),
  rawData: z.string().nullish(),
  viewCount: z.int().nullish(),
  likeCount: z.int().nullish(),
  published: z.string().nullish(),
  created: z.string().nullish(),
  lastModified: z.string().nullish(),
  tags: z.array(tagSchema).nullish(),
});
export type Dataset = z.infer<typeof datasetSchema>;

export const channelSchema = halResource({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  picture: z.string().nullish(),
  type: z.string().nullish(),
  scope: z.string().nullish(),
  created: z.string().nullish(),
  lastModified: z.string().nullish(),
});
export type Channel = z.infer<typeof channelSchema>;

export const workspacesCollectionSchema = pagedCollection('workspaces', workspaceSchema);
export type WorkspacesCollection = z.infer<typeof workspacesCollectionSchema>;
export const membersCollectionSchema = pagedCollection('members', memberSchema);
export type MembersCollection = z.infer<typeof membersCollectionSchema>;
export const jobsCollectionSchema = pagedCollection('jobs', jobSchema);
export type JobsCollection = z.infer<typeof jobsCollectionSchema>;
export const notificationsCollectionSchema = pagedCollection('notifications', notificationSchema);
export type NotificationsCollection = z.infer<typeof notificationsCollectionSchema>;
export const invitationsCollectionSchema = pagedCollection('invitations', invitationSchema);
export type InvitationsCollection = z.infer<typeof invitationsCollectionSchema>;
export const apiKeysCollectionSchema = pagedCollection('apikeys', apiKeySchema);
export type ApiKeysCollection = z.infer<typeof apiKeysCollectionSchema>;
export const channelsCollectionSchema = pagedCollection('channels', channelSchema);
export type ChannelsCollection = z.infer<typeof channelsCollectionSchema>;
export const tagsCollectionSchema = pagedCollection('tags', tagSchema);
export type TagsCollection = z.infer<typeof tagsCollectionSchema>;
export const datasetsCollectionSchema = pagedCollection('datasets', datasetSchema);
export type DatasetsCollection = z.infer<typeof datasetsCollectionSchema>;
