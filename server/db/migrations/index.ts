import type { Migration } from 'kysely';
import * as core from './001_core';
import * as identity from './002_identity';
import * as identityThrottle from './003_identity_throttle';
import * as readIndexes from './004_read_indexes';
import * as lab from './005_lab';
import * as labApi from './006_lab_api';
import * as datasets from './007_datasets';
import * as dataplugins from './008_dataplugins';
import * as dataStores from './009_data_stores';
import * as workspaces from './010_workspaces';
import * as setupTasks from './011_setup_tasks';
import * as search from './012_search';
import * as news from './013_news';
import * as comments from './014_comments';
import * as notificationSettings from './015_notification_settings';
import * as datasetAlerts from './016_dataset_alerts';
import * as searchDocuments from './017_search_documents';
import * as identityEmailChange from './018_identity_email_change';
import * as queryRoles from './019_query_roles';
import * as tablePrefixes from './020_table_prefixes';
import * as subscriptionsMessages from './021_subscriptions_messages';
import * as workspaceResources from './022_workspace_resources';
import * as rowsByStream from './023_rows_by_stream';
import * as foreignKeyIndexes from './024_foreign_key_indexes';
import * as datasetCountsAndTags from './025_dataset_counts_and_tags';
import * as datasetBodies from './026_dataset_bodies';
import * as datasetBodyCompression from './027_dataset_body_compression';
import * as credentialChanges from './028_credential_changes';
import * as storeLoadingRoles from './029_store_loading_roles';
import * as streamCatalogs from './030_stream_catalogs';
import * as workspaceDeployments from './031_workspace_deployments';
import * as resourceChunks from './032_resource_chunks';
import * as openLineageEvents from './033_openlineage_events';
import * as storeModels from './034_store_models';

/** Ordered by name; a new migration is a new file added here, never an edit of an old one. */
export const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_identity': identity,
  '003_identity_throttle': identityThrottle,
  '004_read_indexes': readIndexes,
  '005_lab': lab,
  '006_lab_api': labApi,
  '007_datasets': datasets,
  '008_dataplugins': dataplugins,
  '009_data_stores': dataStores,
  '010_workspaces': workspaces,
  '011_setup_tasks': setupTasks,
  '012_search': search,
  '013_news': news,
  '014_comments': comments,
  '015_notification_settings': notificationSettings,
  '016_dataset_alerts': datasetAlerts,
  '017_search_documents': searchDocuments,
  '018_identity_email_change': identityEmailChange,
  '019_query_roles': queryRoles,
  '020_table_prefixes': tablePrefixes,
  '021_subscriptions_messages': subscriptionsMessages,
  '022_workspace_resources': workspaceResources,
  '023_rows_by_stream': rowsByStream,
  '024_foreign_key_indexes': foreignKeyIndexes,
  '025_dataset_counts_and_tags': datasetCountsAndTags,
  '026_dataset_bodies': datasetBodies,
  '027_dataset_body_compression': datasetBodyCompression,
  '028_credential_changes': credentialChanges,
  '029_store_loading_roles': storeLoadingRoles,
  '030_stream_catalogs': streamCatalogs,
  '031_workspace_deployments': workspaceDeployments,
  '032_resource_chunks': resourceChunks,
  '033_openlineage_events': openLineageEvents,
  '034_store_models': storeModels,
};
