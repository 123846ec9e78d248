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
  /** a new address waiting for the link mailed to it; `email` stays until it is confirmed */
  pendingEmail: z.string().nullish(),
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
  managed: z.boolean().nullish(),
  repositoryUrl: z.string().nullish(),
  repositoryBranch: z.string().nullish(),
  githubInstallationId: z.string().nullish(),
  /** shown to admins (the deploy webhook's secret) */
  deploymentSecret: z.string().nullish(),
  /** the SSH key is write-only: only whether one is stored */
  sshPrivateKeySet: z.boolean().nullish(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const memberSchema = halResource({
  id: z.string(),
  name: z.string(),
  email: z.string().nullish(),
  handle: z.string().nullish(),
  role: z.string().nullish(),
  /** an owner or editor: the Matatika reference's Administrator flag, so no client reads role names */
  administrator: z.boolean().nullish(),
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

/** A person's noise control (issue 12): see src/domain/noiseControl.ts. */
export const notificationSettingsSchema = halResource({
  mentionsOnly: z.boolean(),
  digest: z.boolean(),
  routes: z.array(z.looseObject({ objectType: z.enum(['DATASET', 'PIPELINE']), objectId: z.string(), level: z.enum(['ALL', 'ERRORS', 'NONE']) })),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const JOB_STATUSES = ['SKIPPED', 'COMPLETE', 'ERROR', 'QUEUED', 'RUNNING', 'STOPPED'] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

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
  /** rows its loader wrote into the store so far (ours; Matatika's job has no such field) */
  rowsLoaded: z.number().nullish(),
  /** the same rows per stream, summing to rowsLoaded (ours; jobs that ran before have none) */
  rowsByStream: z.record(z.string(), z.number()).nullish(),
  _embedded: z
    .looseObject({
      profile: z.looseObject({ email: z.string() }).nullish(),
      pipeline: z.looseObject({ id: z.string(), name: z.string().nullish() }).nullish(),
      // a setup task (PROFILE_CONFIGURE_DATASTORE) or a store's connection check
      datastore: z.looseObject({ id: z.string(), name: z.string().nullish() }).nullish(),
    })
    .nullish(),
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

export const tagSchema = halResource({ id: z.string().nullish(), name: z.string(), usage: z.int().nullish() });
export type Tag = z.infer<typeof tagSchema>;

/** A member who starred a dataset. */
const likerSchema = z.looseObject({ id: z.string(), name: z.string().nullish(), email: z.string().nullish() });

/**
 * The pipeline run that last loaded a table the dataset's query reads. `failed` is set when that
 * pipeline's latest run ended in ERROR (the data may be stale); tables not loaded yet are listed.
 */
export const freshnessSchema = z.looseObject({
  tables: z.array(z.string()),
  missingTables: z.array(z.string()).nullish(),
  refreshed: z.string().nullish(),
  jobId: z.string().nullish(),
  pipelineId: z.string().nullish(),
  pipelineName: z.string().nullish(),
  failed: z.boolean(),
  failedJobId: z.string().nullish(),
});
export type Freshness = z.infer<typeof freshnessSchema>;

/**
 * Why a search result matched (issue 11): which field, which searched term, the dataset's word it
 * reached and how (the same word, a word it begins, or a word within the allowed edits), with a
 * short snippet of the field and the ranges [start, end) of the matched words in that snippet.
 */
export const searchMatchSchema = z.object({
  field: z.enum(['title', 'alias', 'tags', 'questions', 'description']),
  term: z.string(),
  word: z.string(),
  kind: z.enum(['exact', 'prefix', 'fuzzy']),
  edits: z.int(),
  snippet: z.string(),
  ranges: z.array(z.object({ start: z.int(), end: z.int() })),
});
export type SearchMatch = z.infer<typeof searchMatchSchema>;

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
  /** read-only SQL against the workspace's default data store; the data comes from it when set */
  query: z.string().nullish(),
  likedByProfiles: z.array(likerSchema).nullish(),
  commentCount: z.int().nullish(),
  /** the chart refreshes its data every 5 s (spec 002 §9) */
  continuousPoll: z.boolean().nullish(),
  /** on a single dataset only: which run last refreshed the tables its query reads */
  freshness: freshnessSchema.nullish(),
  /** in search results only: why the dataset matched, best first */
  matches: z.array(searchMatchSchema).nullish(),
});
export type Dataset = z.infer<typeof datasetSchema>;

/** A comment's author (spec 002 §3 from.name; the Matatika reference's Member). */
const commentAuthorSchema = z.looseObject({ id: z.string().nullish(), name: z.string().nullish(), handle: z.string().nullish() });

/** A comment or reply (spec 002 §3; commentCount counts its replies). */
export const commentSchema = halResource({
  id: z.string(),
  message: z.string().nullish(),
  datasetId: z.string(),
  parentId: z.string().nullish(),
  from: commentAuthorSchema.nullish(),
  created: z.string().nullish(),
  lastModified: z.string().nullish(),
  likeCount: z.int().nullish(),
  likedByProfiles: z.array(likerSchema).nullish(),
  commentCount: z.int().nullish(),
});
export type Comment = z.infer<typeof commentSchema>;

/** PUT 'update comment': creates an initialised comment, later edits it. */
export const commentWriteSchema = z.object({
  message: z
    .string({ message: 'Message is required' })
    .max(10_000, 'must be at most 10000 characters')
    .refine((text) => text.trim() !== '', 'Message is required'),
  datasetId: z.string({ message: 'Dataset is required' }).max(100),
  parentId: z.string().max(100).nullish(),
});
export type CommentWrite = z.infer<typeof commentWriteSchema>;

/** An earlier text of an edited comment (GET 'history'). */
const commentEditSchema = z.looseObject({ message: z.string(), written: z.string().nullish(), edited: z.string().nullish() });
export const commentHistorySchema = halResource({ _embedded: z.looseObject({ comments: z.array(commentEditSchema) }).nullish() });

/**
 * POST 'publish dataset' (the Matatika reference: an existing id or alias is replaced) and
 * PATCH 'edit dataset' (any subset). visualisation and metadata are JSON text; the channel is
 * named by id; tags replace the dataset's tags.
 */
export const datasetWriteSchema = z.object({
  id: z.string().optional(),
  alias: z.string().max(200).nullish(),
  title: z.string().min(1).max(500),
  description: z.string().max(100_000).nullish(),
  questions: z.string().max(10_000).nullish(),
  query: z.string().max(100_000).nullish(),
  rawData: z.string().max(10_000_000).nullish(),
  visualisation: z.string().max(100_000).nullish(),
  metadata: z.string().max(100_000).nullish(),
  channelId: z.string().nullish(),
  tags: z.array(z.string().min(1).max(100)).max(50).nullish(),
  continuousPoll: z.boolean().nullish(),
});
export type DatasetWrite = z.infer<typeof datasetWriteSchema>;
export const datasetPatchSchema = datasetWriteSchema.partial();
export type DatasetPatch = z.infer<typeof datasetPatchSchema>;

/** POST 'preview dataset' with {query}: the first rows of a query that is not saved yet. */
export const datasetPreviewRequestSchema = z.object({ query: z.string().min(1).max(100_000) });
export const datasetPreviewSchema = z.looseObject({
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.unknown())),
  /** more rows exist than the preview's cap */
  truncated: z.boolean(),
});
export type DatasetPreview = z.infer<typeof datasetPreviewSchema>;

/** A column of a store table, its type as PostgreSQL names it. */
const storeColumnSchema = z.looseObject({ name: z.string(), type: z.string() });

/** The 'tables' link: what the workspace's store holds (the store browser). */
export const storeTableSchema = halResource({
  name: z.string(),
  columns: z.array(storeColumnSchema),
  /** counted up to a cap (`rowsAtLeast` past it); null when counting ran out of time */
  rows: z.int().nullish(),
  rowsAtLeast: z.boolean().nullish(),
  /** the pipeline run that last loaded the table; null for a table no run has loaded */
  lastLoad: z
    .looseObject({
      loaded: z.string(),
      rows: z.int(),
      jobId: z.string().nullish(),
      pipelineId: z.string().nullish(),
      pipelineName: z.string().nullish(),
    })
    .nullish(),
});
export type StoreTable = z.infer<typeof storeTableSchema>;
export const storeTablesSchema = halResource({ tables: z.array(storeTableSchema) });

/** A table's self link: its columns and first rows. */
export const storeTableSampleSchema = halResource({
  name: z.string(),
  columns: z.array(storeColumnSchema),
  rows: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean(),
});
export type StoreTableSample = z.infer<typeof storeTableSampleSchema>;

export const channelSchema = halResource({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  picture: z.string().nullish(),
  type: z.string().nullish(),
  scope: z.string().nullish(),
  created: z.string().nullish(),
  lastModified: z.string().nullish(),
  datasetCount: z.int().nullish(),
  creator: z.looseObject({ name: z.string().nullish() }).nullish(),
  canDelete: z.boolean().nullish(),
  /** with `?dataset={id}`: whether that dataset is in this channel (the 'Add to list' dialog) */
  containsDataset: z.boolean().nullish(),
});
export type Channel = z.infer<typeof channelSchema>;
const CHANNEL_TYPES = ['LIST', 'SOURCE'] as const;
const CHANNEL_SCOPES = ['WORKSPACE', 'PROFILE'] as const;
/** PUT 'create channel' and 'update channel' (spec 002 §7). */
export const channelWriteSchema = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2_000).nullish(),
  type: z.enum(CHANNEL_TYPES).optional(),
  scope: z.enum(CHANNEL_SCOPES).optional(),
});

// The Lab (spec 001 §3). A pipeline's and a component's properties are keyed
// '{componentName}.{setting}' with values of any JSON type the setting's kind allows.

export const PLUGIN_TYPES = ['EXTRACTOR', 'LOADER', 'MAPPER', 'TRANSFORMER', 'UTILITY', 'FILE'] as const;
export type PluginType = (typeof PLUGIN_TYPES)[number];
export const SETTING_KINDS = ['OAUTH', 'HIDDEN', 'PASSWORD', 'DATE_ISO8601', 'FILE', 'EMAIL', 'INTEGER', 'OPTIONS', 'OBJECT', 'ARRAY', 'BOOLEAN', 'STRING'] as const;
export type SettingKind = (typeof SETTING_KINDS)[number];
export const SUBSCRIPTION_TYPES = ['ALERTS', 'ALL'] as const;
export const subscriptionTypeSchema = z.enum(SUBSCRIPTION_TYPES);
export type SubscriptionType = z.infer<typeof subscriptionTypeSchema>;
/** What an existing subscription may be set to: the reference's NONE keeps it but tells nothing. */
const SUBSCRIPTION_LEVELS = ['ALERTS', 'ALL', 'NONE'] as const;
const subscriptionLevelSchema = z.enum(SUBSCRIPTION_LEVELS, { error: `must be one of ${SUBSCRIPTION_LEVELS.join(', ')}` });
/** What a subscription is to (the Matatika reference: a workspace, a channel, a dataset or a pipeline). */
const SUBSCRIPTION_SUBJECTS = ['WORKSPACE', 'CHANNEL', 'DATASET', 'PIPELINE'] as const;

const propertiesSchema = z.record(z.string(), z.unknown());

const settingOptionSchema = z.looseObject({ label: z.string().nullish(), value: z.unknown() });

/** A plugin setting. `kind` stays an open string: a discovery file may name kinds this client renders as STRING. */
export const settingSchema = z.looseObject({
  name: z.string(),
  label: z.string().nullish(),
  kind: z.string().nullish(),
  description: z.string().nullish(),
  value: z.unknown().optional(),
  placeholder: z.string().nullish(),
  // Spec §3: an empty required attribute means required unless it is the text 'false'.
  required: z.union([z.boolean(), z.string()]).nullish(),
  hidden: z.boolean().nullish(),
  sensitive: z.boolean().nullish(),
  encoding: z.string().nullish(),
  env: z.string().nullish(),
  options: z.array(settingOptionSchema).nullish(),
  oauth: z.looseObject({ provider: z.string().nullish() }).nullish(),
  value_processor: z.string().nullish(),
  /** a link to the setting's documentation (from the discovery file) */
  documentation: z.string().nullish(),
});
export type Setting = z.infer<typeof settingSchema>;

export const dataPluginSchema = halResource({
  id: z.string(),
  name: z.string(),
  label: z.string().nullish(),
  variant: z.string().nullish(),
  pluginType: z.string(),
  namespace: z.string().nullish(),
  description: z.string().nullish(),
  fullDescription: z.string().nullish(),
  docs: z.string().nullish(),
  /** where the plugin's code lives (the Matatika reference's repositoryUrl; discovery.yml's repo) */
  repositoryUrl: z.string().nullish(),
  logoUrl: z.string().nullish(),
  dataPluginLogoUrl: z.string().nullish(),
  capabilities: z.array(z.string()).nullish(),
  commands: z.record(z.string(), z.unknown()).nullish(),
  settings: z.array(settingSchema).nullish(),
  hidden: z.boolean().nullish(),
  canDelete: z.boolean().nullish(),
  /** a job can run it: a built-in plugin, or a Python package Meltano installs (pipUrl); others are configurable only */
  runnable: z.boolean().nullish(),
  /** what Meltano installs (Meltano's pip_url); none for the built-in plugins */
  pipUrl: z.string().nullish(),
  /** published by the workspace's discovery upload */
  custom: z.boolean().nullish(),
  installed: z.boolean().nullish(),
});
export type DataPlugin = z.infer<typeof dataPluginSchema>;

/** A component's stored OAuth credentials as the API shows them (spec 001 §4 'OAuth connection'). */
export const oauthCredentialsSchema = z.looseObject({
  connected: z.boolean(),
  provider: z.string().nullish(),
  /** when the access token expires */
  expiresAt: z.string().nullish(),
  /** when the tokens were last obtained (a connect or a refresh) */
  refreshedAt: z.string().nullish(),
  /** whether a refresh token is held, so the access token can be renewed without the user */
  refreshable: z.boolean().nullish(),
});
export type OAuthCredentials = z.infer<typeof oauthCredentialsSchema>;

/** The answer of the token exchange (POST /tokens/{provider}/token): the access token for the pickers; the refresh token stays on the server. */
export const oauthTokenSchema = z.looseObject({
  access_token: z.string(),
  token_type: z.string().nullish(),
  expires_in: z.number().nullish(),
  scope: z.string().nullish(),
  credentials: oauthCredentialsSchema,
});
export type OAuthToken = z.infer<typeof oauthTokenSchema>;

export const dataComponentSchema = halResource({
  id: z.string(),
  name: z.string(),
  /** the plugin reference `{plural type}/{name}--{variant}`, e.g. 'extractors/tap-demo--builtin' */
  dataPlugin: z.string().nullish(),
  pluginType: z.string().nullish(),
  properties: propertiesSchema.nullish(),
  commands: z.record(z.string(), z.unknown()).nullish(),
  created: z.string().nullish(),
  lastModified: z.string().nullish(),
  /** OAuth connect: whether the component holds credentials, and their health (never the tokens) */
  credentials: oauthCredentialsSchema.nullish(),
  _embedded: z.looseObject({ dataplugin: dataPluginSchema.nullish() }).nullish(),
});
export type DataComponent = z.infer<typeof dataComponentSchema>;

export const dataStoreSchema = halResource({
  id: z.string(),
  name: z.string(),
  jdbcUrl: z.string().nullish(),
  logoUrl: z.string().nullish(),
  managed: z.boolean().nullish(),
  draft: z.boolean().nullish(),
  default: z.boolean().nullish(),
  status: z.string().nullish(),
  /** why its last connection check failed (FAILED) */
  statusMessage: z.string().nullish(),
  /** `loaders/{name}--{variant}` */
  dataPlugin: z.string().nullish(),
  properties: propertiesSchema.nullish(),
  created: z.string().nullish(),
  lastModified: z.string().nullish(),
});
export type DataStore = z.infer<typeof dataStoreSchema>;

export const pipelineSchema = halResource({
  // An initialised pipeline (POST 'new pipeline') has no id until it is saved.
  id: z.string().nullish(),
  name: z.string().nullish(),
  status: z.string().nullish(),
  draft: z.boolean().nullish(),
  properties: propertiesSchema.nullish(),
  /** a 6-field cron (seconds first); null or empty means manual */
  schedule: z.string().nullish(),
  dataComponents: z.array(z.string()).nullish(),
  actions: z.array(z.string()).nullish(),
  script: z.string().nullish(),
  /** seconds; 0 means the default of 300 */
  timeout: z.int().nullish(),
  maxRetries: z.int().nullish(),
  triggeredBy: z.array(z.string()).nullish(),
  created: z.string().nullish(),
  lastModified: z.string().nullish(),
  _embedded: z
    .looseObject({
      // the Matatika reference names the latest job's key with a space, like a link relation
      'latest job': jobSchema.nullish(),
      dataComponents: z.array(dataComponentSchema).nullish(),
      datastore: dataStoreSchema.nullish(),
    })
    .nullish(),
});
export type Pipeline = z.infer<typeof pipelineSchema>;

/** The body of PUT 'create pipeline' / 'update pipeline' / 'draft pipeline'. */
export const pipelineWriteSchema = z.object({
  name: z.string(),
  properties: propertiesSchema.nullish(),
  schedule: z.string().nullish(),
  dataComponents: z.array(z.string()).nullish(),
  actions: z.array(z.string()).nullish(),
  script: z.string().nullish(),
  timeout: z.int().min(0).nullish(),
  maxRetries: z.int().min(0).nullish(),
  triggeredBy: z.array(z.string()).nullish(),
  shareTables: z.boolean().nullish(),
});
export type PipelineWrite = z.infer<typeof pipelineWriteSchema>;

/** One variable of a pipeline's environment; a sensitive value is always '***' on the wire. */
const environmentVariableSchema = z.looseObject({ value: z.string().nullable(), sensitive: z.boolean() });
export const environmentSchema = halResource({
  variables: z.record(z.string(), environmentVariableSchema),
});
export type Environment = z.infer<typeof environmentSchema>;

/** One job of a pipeline's History chart. */
export const metricSchema = z.looseObject({
  jobId: z.string(),
  status: jobStatusSchema,
  created: z.string(),
  startTime: z.string().nullish(),
  endTime: z.string().nullish(),
  /** seconds, null until the job has started and ended */
  duration: z.number().nullish(),
  rowsLoaded: z.int(),
  attempt: z.int().nullish(),
});
export type Metric = z.infer<typeof metricSchema>;
export const metricsSchema = halResource({ metrics: z.array(metricSchema) });

/** Where a pipeline's next run resumes: its incremental states' bookmarks (src/domain/pipelineState.ts). */
export const pipelineStateSchema = halResource({
  states: z.array(
    z.looseObject({
      stateId: z.string(),
      updated: z.string().nullish(),
      bookmarks: z.array(z.looseObject({ stream: z.string(), position: z.string() })),
    }),
  ),
});
export type PipelineState = z.infer<typeof pipelineStateSchema>;

/** A pipeline's extractors' discovered streams (GET /pipelines/{id}/streams); its 'verify pipeline' link discovers them again. */
export const pipelineStreamsSchema = halResource({
  extractors: z.array(
    z.looseObject({
      name: z.string(),
      /** when discovery listed these streams for the present settings; absent: not discovered yet */
      discovered: z.string().nullish(),
      streams: z.array(z.looseObject({ name: z.string(), properties: z.array(z.looseObject({ name: z.string(), type: z.string(), automatic: z.boolean() })) })).nullish(),
      /** the `select` rules in force; absent: Meltano's default, everything */
      select: z.array(z.string()).nullish(),
    }),
  ),
});
export type PipelineStreams = z.infer<typeof pipelineStreamsSchema>;

export const subscriptionSchema = halResource({
  id: z.string(),
  type: subscriptionLevelSchema,
  created: z.string().nullish(),
  lastModified: z.string().nullish(),
  /** what it is to: a workspace, channel, dataset or pipeline, by id */
  subject: z.looseObject({ type: z.enum(SUBSCRIPTION_SUBJECTS), id: z.string(), name: z.string().nullish() }).nullish(),
  /** whose it is (in the list of a workspace's member subscriptions) */
  member: z.looseObject({ id: z.string(), name: z.string().nullish(), handle: z.string().nullish() }).nullish(),
});
/** Watch (POST): ALL unless the body says ALERTS, as the reference subscribes with no body. */
export const subscriptionWriteSchema = z.object({ type: subscriptionTypeSchema.default('ALL') });
/** 'update subscription' (PUT): the new type. */
export const subscriptionUpdateSchema = z.object({ type: subscriptionLevelSchema });
export const subscriptionsCollectionSchema = pagedCollection('subscriptions', subscriptionSchema);

/** The reference's Dataset Message: a note about a dataset to one member, told as DATASET_MESSAGE. */
export const datasetMessageSchema = halResource({
  id: z.string(),
  datasetId: z.string(),
  recipientId: z.string().nullish(),
  message: z.string().nullish(),
  created: z.string().nullish(),
  lastModified: z.string().nullish(),
});
const MAX_DATASET_MESSAGE = 2_000;
export const datasetMessageWriteSchema = z.object({
  recipientId: z.string({ error: 'Recipient is mandatory' }).trim().min(1, 'Recipient is mandatory').max(200, 'is not a member'),
  message: z.string({ error: 'Message is mandatory' }).trim().min(1, 'Message is mandatory').max(MAX_DATASET_MESSAGE, `must be at most ${MAX_DATASET_MESSAGE} characters`),
});

export const pipelinesCollectionSchema = pagedCollection('pipelines', pipelineSchema);
export type PipelinesCollection = z.infer<typeof pipelinesCollectionSchema>;
export const dataComponentsCollectionSchema = pagedCollection('datacomponents', dataComponentSchema);
export const dataPluginsCollectionSchema = pagedCollection('dataplugins', dataPluginSchema);
export const dataStoresCollectionSchema = pagedCollection('datastores', dataStoreSchema);

export const workspacesCollectionSchema = pagedCollection('workspaces', workspaceSchema);
/** GET /api/profiles: the caller's own profile, alone (nobody else's address is listed) */
export const profilesCollectionSchema = pagedCollection('profiles', profileSchema);
export const membersCollectionSchema = pagedCollection('members', memberSchema);
export type MembersCollection = z.infer<typeof membersCollectionSchema>;
/** The workspace's administrators (owners and editors), as members. */
export const administratorsCollectionSchema = pagedCollection('administrators', memberSchema);
export const jobsCollectionSchema = pagedCollection('jobs', jobSchema);
export type JobsCollection = z.infer<typeof jobsCollectionSchema>;
export const notificationsCollectionSchema = pagedCollection('notifications', notificationSchema);
export type NotificationsCollection = z.infer<typeof notificationsCollectionSchema>;
export const invitationsCollectionSchema = pagedCollection('invitations', invitationSchema);
export const apiKeysCollectionSchema = pagedCollection('apikeys', apiKeySchema);
export const channelsCollectionSchema = pagedCollection('channels', channelSchema);
export const tagsCollectionSchema = pagedCollection('tags', tagSchema);
export const datasetsCollectionSchema = pagedCollection('datasets', datasetSchema);
/** POST a workspace's datasets/_msearch: one answer per search, in order, each the body of GET …/search */
export const datasetMultiSearchSchema = z.looseObject({ responses: z.array(datasetsCollectionSchema) });
export type DatasetsCollection = z.infer<typeof datasetsCollectionSchema>;

export const commentsCollectionSchema = pagedCollection('datasetComments', commentSchema);
export type CommentsCollection = z.infer<typeof commentsCollectionSchema>;

/** A workspace resource (the Matatika reference's Resource, without `content`: its bytes are the download). */
export const workspaceResourceSchema = halResource({
  path: z.string(),
  created: z.string(),
  lastModified: z.string(),
  contentType: z.string(),
  /** in bytes */
  size: z.int().min(0),
});
export type WorkspaceResource = z.infer<typeof workspaceResourceSchema>;
export const workspaceResourcesCollectionSchema = pagedCollection('resources', workspaceResourceSchema);
export type WorkspaceResourcesCollection = z.infer<typeof workspaceResourcesCollectionSchema>;
