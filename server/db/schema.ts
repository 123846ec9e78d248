import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { CatalogStream } from '../../src/domain/streamSelection';

/** Kysely's view of the tables; the migrations in ./migrations are the source of truth. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T extends object | null> = JSONColumnType<T, string, string>;

export interface ProfilesTable {
  id: string; // the identity provider's subject, e.g. 'auth0|<uuid>'
  name: string;
  email: string;
  default_workspace_id: string | null;
  features_disabled: string | null;
  can_create_workspaces: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** the account's last password reset or email change: older access tokens are refused (issue 36) */
  credentials_changed_at: NullableTimestamp;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  image_url: string | null;
  default_environment: string | null;
  domains: Json<string[]>;
  app_properties: Json<Record<string, string>>;
  status: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  // 010_workspaces: the repository a deployment reads, and its secrets (never returned: the key)
  repository_url: ColumnType<string | null, string | null | undefined, string | null>;
  repository_branch: ColumnType<string | null, string | null | undefined, string | null>;
  ssh_private_key: ColumnType<string | null, string | null | undefined, string | null>;
  github_installation_id: ColumnType<string | null, string | null | undefined, string | null>;
  deployment_secret: ColumnType<string | null, string | null | undefined, string | null>;
  managed: ColumnType<boolean, boolean | undefined, boolean>;
}

export type MemberRole = 'owner' | 'editor' | 'member';

export interface WorkspaceMembersTable {
  workspace_id: string;
  profile_id: string;
  role: MemberRole;
  handle: string | null;
  created_at: Timestamp;
}

export interface JobsTable {
  id: string;
  workspace_id: string;
  profile_id: string | null;
  pipeline_id: string | null;
  type: string;
  status: string;
  triggered_by: string | null;
  attempt: number;
  max_attempts: number;
  commit_id: string | null;
  created: Timestamp;
  start_time: NullableTimestamp;
  end_time: NullableTimestamp;
  // 005_lab: the queue
  exit_code: ColumnType<number | null, number | null | undefined, number | null>;
  trigger_kind: ColumnType<JobTriggerKind, JobTriggerKind | undefined, JobTriggerKind>;
  triggered_by_job_id: ColumnType<string | null, string | null | undefined, string | null>;
  retry_of: ColumnType<string | null, string | null | undefined, string | null>;
  scheduled_slot: NullableTimestamp;
  run_after: Timestamp;
  timeout_seconds: ColumnType<number, number | undefined, number>;
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>;
  lease_expires_at: NullableTimestamp;
  process_host: ColumnType<string | null, string | null | undefined, string | null>;
  process_group: ColumnType<number | null, number | null | undefined, number | null>;
  stop_requested: ColumnType<boolean, boolean | undefined, boolean>;
  end_reason: ColumnType<string | null, string | null | undefined, string | null>;
  rows_loaded: ColumnType<number, number | undefined, number>;
  // 023_rows_by_stream: rows loaded per stream, summing to rows_loaded
  rows_by_stream: ColumnType<Record<string, number>, string | undefined, string>;
  // 009_data_stores: a store's connection check
  datastore_id: ColumnType<string | null, string | null | undefined, string | null>;
  // 011_setup_tasks: the pipeline or data store a PROFILE_CONFIGURE_* task asks to finish
  task_pipeline_id: ColumnType<string | null, string | null | undefined, string | null>;
  task_datastore_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export type JobTriggerKind = 'MANUAL' | 'SCHEDULE' | 'PIPELINE' | 'RETRY' | 'SEED';

export interface PipelinesTable {
  id: string;
  workspace_id: string;
  name: string;
  status: ColumnType<string, string | undefined, string>;
  draft: ColumnType<boolean, boolean | undefined, boolean>;
  properties: Json<Record<string, unknown>>;
  schedule: string | null;
  data_components: Json<string[]>;
  actions: Json<string[]>;
  script: string | null;
  timeout: ColumnType<number, number | undefined, number>;
  max_retries: ColumnType<number, number | undefined, number>;
  triggered_by: Json<string[]>;
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  created: Timestamp;
  last_modified: Timestamp;
}

export interface DataComponentsTable {
  id: string;
  workspace_id: string;
  name: string;
  plugin_type: string;
  plugin_name: string;
  variant: string | null;
  properties: Json<Record<string, unknown>>;
  created: Timestamp;
  last_modified: Timestamp;
}

export interface WorkspaceDataPluginsTable {
  id: string;
  workspace_id: string;
  plugin_type: string;
  name: string;
  variant: ColumnType<string, string | undefined, string>;
  /** a custom plugin's definition as published (src/domain/discovery.ts DiscoveredPlugin); null for a catalogue plugin */
  definition: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created: Timestamp;
}

export interface DataStoresTable {
  id: string;
  workspace_id: string;
  name: string;
  data_plugin: string;
  properties: Json<Record<string, unknown>>;
  managed: ColumnType<boolean, boolean | undefined, boolean>;
  draft: ColumnType<boolean, boolean | undefined, boolean>;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  status: ColumnType<string, string | undefined, string>;
  created: Timestamp;
  last_modified: Timestamp;
  // 009_data_stores: why its last connection check failed
  status_message: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PipelineStatesTable {
  pipeline_id: string;
  state_id: string;
  value: Json<Record<string, unknown>>;
  updated: Timestamp;
}

export interface StreamCatalogsTable {
  workspace_id: string;
  catalog_key: string;
  streams: Json<CatalogStream[]>;
  job_id: string | null;
  discovered: Timestamp;
}

export interface WorkspaceDeploymentsTable {
  workspace_id: string;
  repository_url: string;
  branch: string;
  commit_id: string;
  job_id: string | null;
  deployed: Timestamp;
}

export interface JobLogsTable {
  job_id: string;
  sequence: number;
  timestamp: Timestamp;
  message: string;
}

export interface NotificationsTable {
  id: string;
  profile_id: string;
  workspace_id: string | null;
  type: string;
  message: string;
  resolved: boolean;
  actor_name: string | null;
  dataset_id: string | null;
  job_id: string | null;
  /** 015: the pipeline it is about (its click target and routing key) */
  pipeline_id: ColumnType<string | null, string | null | undefined, string | null>;
  created: Timestamp;
  last_modified: Timestamp;
}

/** 015: noise control, one row per profile that changed a default */
export interface NotificationSettingsTable {
  profile_id: string;
  mentions_only: Generated<boolean>;
  digest: Generated<boolean>;
  last_digest_at: NullableTimestamp;
}

type RouteObjectType = 'DATASET' | 'PIPELINE';
type RouteLevel = 'ALL' | 'ERRORS' | 'NONE';

/** 015: per-object routing: everything, errors only, or nothing about one dataset or pipeline */
export interface NotificationRoutesTable {
  profile_id: string;
  object_type: RouteObjectType;
  object_id: string;
  level: RouteLevel;
}

/** 015: events held for the daily digest of a profile in digest mode */
export interface NotificationDigestItemsTable {
  id: string;
  profile_id: string;
  workspace_id: string | null;
  type: string;
  message: string;
  actor_name: string | null;
  created: Timestamp;
}

export interface SubscriptionsTable {
  id: string;
  profile_id: string;
  /** 007: exactly one of pipeline_id and dataset_id is set */
  pipeline_id: string | null;
  dataset_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 021: a channel or a whole workspace may be watched too (exactly one target is set) */
  channel_id: ColumnType<string | null, string | null | undefined, string | null>;
  workspace_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 021: NONE keeps the subscription but tells nothing */
  type: 'ALERTS' | 'ALL' | 'NONE';
  created: Timestamp;
  last_modified: Timestamp;
}

/** 021: a member's note about a dataset to another member (the reference's Dataset Message). */
export interface DatasetMessagesTable {
  id: string;
  dataset_id: string;
  sender_id: string;
  recipient_id: string;
  message: string;
  created: Timestamp;
  last_modified: Timestamp;
}

export interface InvitationsTable {
  id: string;
  workspace_id: string;
  email: string;
  status: string;
  invited_by: string | null;
  created: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  profile_id: string;
  name: string;
  client_id: string;
  secret_hash: string;
  created: Timestamp;
}

export interface ChannelsTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  picture: string | null;
  type: string;
  scope: string;
  creator_id: string | null;
  created: Timestamp;
  last_modified: Timestamp;
}

export interface DatasetsTable {
  id: string;
  workspace_id: string;
  channel_id: string | null;
  alias: string | null;
  title: string;
  description: string | null;
  description_content_type: string;
  questions: string | null;
  visualisation: string | null;
  metadata: string | null;
  raw_data: string | null;
  query: string | null;
  view_count: Generated<number>;
  /** how many profiles starred it: set by the row's trigger with its body's likers (migration 026) */
  like_count: ColumnType<number, never, never>;
  continuous_poll: Generated<boolean>;
  published: Timestamp;
  created: Timestamp;
  last_modified: Timestamp;
  /** the title and alias lowercased, words joined by single spaces (migration 012; generated) */
  search_title: ColumnType<string, never, never>;
  search_alias: ColumnType<string, never, never>;
  /** its comments and replies with a message, and its tags sorted: kept by triggers (migration 025) */
  comment_count: ColumnType<number, never, never>;
  tags: ColumnType<string[], never, never>;
  /** its body as every viewer sees it (no tags, no links), JSON text kept by a trigger (migration 026) */
  body_json: ColumnType<string, never, never>;
  /** its raw data is a JSON list of rows (generated; migration 026) */
  holds_rows: ColumnType<boolean, never, never>;
}

export interface DatasetLikesTable {
  dataset_id: string;
  profile_id: string;
  created: Generated<Date>;
}

export interface ChannelDatasetsTable {
  channel_id: string;
  dataset_id: string;
  added: Generated<Date>;
}

/** Which job last loaded each table of a workspace's default store. */
export interface StoreLoadsTable {
  workspace_id: string;
  table_name: string;
  job_id: string | null;
  pipeline_id: string | null;
  loaded: Timestamp;
  rows: ColumnType<number, number | undefined, number>;
}

/** 034: the store tables a pipeline's dbt models built, and the tables each read (issue 41) */
export interface StoreModelsTable {
  workspace_id: string;
  table_name: string;
  model: string;
  inputs: ColumnType<string[], string, string>;
  job_id: string | null;
  pipeline_id: string | null;
  built_at: Timestamp;
}

/** 016: a dataset's threshold rules (src/domain/alertRules.ts) */
export interface DatasetAlertRulesTable {
  id: string;
  dataset_id: string;
  column_name: string;
  operator: '>' | '>=' | '<' | '<=';
  threshold: number;
  breached: ColumnType<boolean, boolean | undefined, boolean>;
  position: number;
  created: Timestamp;
}

/** 016: alerts raised on a dataset, by a failed refresh (job_id) or a rule (rule_id) */
export interface DatasetAlertsTable {
  id: string;
  dataset_id: string;
  rule_id: string | null;
  job_id: string | null;
  detail: string;
  raised: Timestamp;
}

/** The search index's word → dataset postings (migration 012; kept by triggers). */
export interface SearchPostingsTable {
  workspace_id: string;
  word: string;
  dataset_id: string;
  field: number;
}

/** Each workspace's distinct indexed words (migration 012; kept by triggers). */
export interface SearchVocabularyTable {
  workspace_id: string;
  word: string;
  length: number;
}

/** Written only by the search index functions (migration 017). */
export interface SearchDocumentsTable {
  dataset_id: string;
  workspace_id: string;
  words: string[];
}

export interface DatasetTagsTable {
  dataset_id: string;
  tag: string;
}

export interface CommentsTable {
  id: string;
  dataset_id: string;
  parent_id: string | null;
  author_id: string;
  /** null while initialised (seen only by its author) */
  message: string | null;
  created: Timestamp;
  last_modified: Timestamp;
}

export interface CommentLikesTable {
  comment_id: string;
  profile_id: string;
  created: Generated<Date>;
}

/** The earlier texts of an edited comment. */
export interface CommentEditsTable {
  id: string;
  comment_id: string;
  message: string;
  written: Timestamp;
  edited: Timestamp;
}

export interface IdpUsersTable {
  id: string; // subject without the 'auth0|' prefix
  email: string;
  name: string;
  password_hash: string;
  email_verified: boolean;
  created_at: Timestamp;
  /** as profiles.credentials_changed_at, for a profile made after the change */
  credentials_changed_at: NullableTimestamp;
}

export interface IdpPayloadsTable {
  id: string;
  type: string;
  payload: Json<Record<string, unknown>>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
}

export interface IdpKeysTable {
  kind: string; // 'signing' | 'cookies'
  value: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface IdpTokensTable {
  token_hash: string;
  kind: string; // OneTimeTokenKind in server/identity/one-time-tokens.ts
  user_id: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  /** the address a 'change-email' link confirms (migration 018) */
  new_email: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface IdpThrottleTable {
  kind: string; // see ThrottleKind in server/identity/throttle.ts
  key: string; // SHA-256 of the normalised key
  failures: number; // attempts counted against the key (for mail kinds: every request)
  first_failure_at: Timestamp;
  last_failure_at: Timestamp;
  locked_until: NullableTimestamp;
}

export interface OutboxTable {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: Timestamp;
}

/** 022_workspace_resources: a workspace's files by path (their bytes: workspace_resource_chunks) */
export interface WorkspaceResourcesTable {
  workspace_id: string;
  path: string;
  /** SHA-256 of the bytes, hex (032) */
  digest: string;
  content_type: string;
  size: number;
  created_by: string | null;
  created: Timestamp;
  last_modified: Timestamp;
}

/** 032_resource_chunks: a workspace file's bytes, in order, at most 1 MiB each */
export interface WorkspaceResourceChunksTable {
  workspace_id: string;
  path: string;
  seq: number;
  bytes: Uint8Array;
}

export interface Database {
  profiles: ProfilesTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  jobs: JobsTable;
  job_logs: JobLogsTable;
  pipelines: PipelinesTable;
  data_components: DataComponentsTable;
  data_stores: DataStoresTable;
  workspace_dataplugins: WorkspaceDataPluginsTable;
  pipeline_states: PipelineStatesTable;
  stream_catalogs: StreamCatalogsTable;
  workspace_deployments: WorkspaceDeploymentsTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  notification_routes: NotificationRoutesTable;
  notification_digest_items: NotificationDigestItemsTable;
  subscriptions: SubscriptionsTable;
  invitations: InvitationsTable;
  api_keys: ApiKeysTable;
  channels: ChannelsTable;
  datasets: DatasetsTable;
  dataset_tags: DatasetTagsTable;
  search_postings: SearchPostingsTable;
  search_vocabulary: SearchVocabularyTable;
  search_documents: SearchDocumentsTable;
  dataset_likes: DatasetLikesTable;
  channel_datasets: ChannelDatasetsTable;
  store_loads: StoreLoadsTable;
  store_models: StoreModelsTable;
  dataset_alert_rules: DatasetAlertRulesTable;
  dataset_alerts: DatasetAlertsTable;
  dataset_messages: DatasetMessagesTable;
  idp_users: IdpUsersTable;
  idp_payloads: IdpPayloadsTable;
  idp_keys: IdpKeysTable;
  idp_tokens: IdpTokensTable;
  idp_throttle: IdpThrottleTable;
  outbox: OutboxTable;
  comments: CommentsTable;
  comment_likes: CommentLikesTable;
  comment_edits: CommentEditsTable;
  workspace_resources: WorkspaceResourcesTable;
  workspace_resource_chunks: WorkspaceResourceChunksTable;
}
