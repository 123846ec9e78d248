/** Link relation names of the specification, word for word: the server and the client share them. */
export const REL = {
  self: 'self',
  newWorkspace: 'new workspace',
  updateDeleteWorkspace: 'update delete workspace',
  /** an initialised workspace's PUT that creates it (the Matatika reference's 'create workspace') */
  createWorkspace: 'create workspace',
  /** the Deploy button: a WORKSPACE_DEPLOY job reading the workspace's repository */
  createDeployment: 'create deployment',
  newApiKey: 'new apikey',
  createApiKey: 'create apikey',
  updateApiKey: 'update apikey',
  deleteApiKey: 'delete apikey',
  acceptInvitation: 'accept invitation',
  questions: 'questions',
  datacomponents: 'datacomponents',
  datastores: 'datastores',
  datastore: 'datastore',
  channels: 'channels',
  newDatastore: 'new datastore',
  newPipeline: 'new pipeline',
  pipelines: 'pipelines',
  logs: 'logs',
  deleteJob: 'delete job',
  jobs: 'jobs',
  members: 'members',
  notifications: 'notifications',
  invitations: 'invitations',
  createInvitation: 'create invitation',
  profile: 'profile',
  workspaces: 'workspaces',
  apikeys: 'apikeys',
  search: 'search',
  feed: 'feed',
  data: 'data',
  updateProfile: 'update profile',
  login: 'login',
  tags: 'tags',
  // The Lab (spec 001 §3)
  metrics: 'metrics',
  environment: 'environment',
  createJob: 'create job',
  withdrawJob: 'withdraw job',
  verifyPipeline: 'verify pipeline',
  /** where the pipeline's next run resumes (its incremental state, issue 37) */
  state: 'state',
  /** clears that state: the next run loads everything again (Meltano's --full-refresh, kept) */
  fullRefresh: 'full refresh',
  /** the streams its extractors' own discovery listed, and the `select` rules in force (issue 37) */
  streams: 'streams',
  updatePipeline: 'update pipeline',
  deletePipeline: 'delete pipeline',
  addSubscription: 'add subscription',
  deleteSubscription: 'delete subscription',
  draftPipeline: 'draft pipeline',
  createPipeline: 'create pipeline',
  dataplugins: 'dataplugins',
  availableDataplugins: 'availabledataplugins',
  addDataplugin: 'add dataplugin',
  /** a plugin's removal from the workspace, offered while its canDelete holds (spec §6) */
  deleteDataplugin: 'delete dataplugin',
  // The global plugin catalogue (the Matatika reference's /api/dataplugins, issue 38): initialising a
  // workspace's own plugin, creating it at its id, and changing it
  newDataplugin: 'new dataplugin',
  createDataplugin: 'create dataplugin',
  updateDataplugin: 'update dataplugin',
  /** the workspace a resource belongs to (the reference's item relation) */
  workspace: 'workspace',
  publishDiscovery: 'publish discovery.yml',
  /** a Meltano discovery.yml: the global catalogue on the root, a workspace's plugins on the workspace */
  discovery: 'discovery.yml',
  /** validates a pipeline body without saving it (the Matatika reference's POST pipelines/validation) */
  validatePipeline: 'validate pipeline',
  createDatacomponent: 'create datacomponent',
  updateDatacomponent: 'update datacomponent',
  // OAuth connect (spec 001 §7): the token exchange that stores a component's credentials, and Disconnect
  authorizeDatacomponent: 'authorize datacomponent',
  disconnectDatacomponent: 'disconnect datacomponent',
  updateDatastore: 'update datastore',
  makeDefault: 'make-default',
  deleteDatastore: 'delete datastore',
  /** the tables of the workspace's embedded store, where dataset SQL reads (the store browser, issue 20) */
  tables: 'tables',
  // Datasets (spec 002 §3, §7; the Matatika reference's 'publish' and 'edit')
  datasets: 'datasets',
  publishDataset: 'publish dataset',
  previewDataset: 'preview dataset',
  editDataset: 'edit dataset',
  deleteDataset: 'delete dataset',
  likeDataset: 'like dataset',
  viewDataset: 'view dataset',
  related: 'related',
  // Alerts of a dataset (spec 002 §3 'alerts'; its threshold rules, issue 12)
  alerts: 'alerts',
  alertRules: 'alert rules',
  updateAlertRules: 'update alert rules',
  // Channels and lists (spec 002 §3 Library channel)
  createChannel: 'create channel',
  updateChannel: 'update channel',
  // Comments (spec 002 §3, §6; the Matatika reference's history and likes)
  comments: 'comments',
  newComment: 'new comment',
  updateComment: 'update comment',
  deleteComment: 'delete comment',
  likeComment: 'like comment',
  history: 'history',
  // The library and reading (spec 002 §2 Library, Starred, News; §3 Library channel links)
  deleteChannel: 'delete channel',
  addWorkspaceScope: 'add workspace-scope',
  withdrawWorkspaceScope: 'withdraw workspace-scope',
  liked: 'liked',
  news: 'news',
  newsChannels: 'news channels',
  // Invitations (spec 002 §3 Invitation, §7) and the notifications inbox (§7; issue 12 noise control)
  withdrawInvitation: 'withdraw invitation',
  deleteInvitation: 'delete invitation',
  addAdministrator: 'add administrator',
  withdrawAdministrator: 'withdraw administrator',
  resolveNotification: 'resolve notification',
  deleteNotification: 'delete notification',
  notificationSettings: 'notification settings',
  updateNotificationSettings: 'update notification settings',
  // The rest of the Matatika reference (issue 19): subscriptions of every kind, members and
  // administrators, alerts raised by hand, dataset messages, a tag, the news' tags
  subscriptions: 'subscriptions',
  updateSubscription: 'update subscription',
  memberSubscriptions: 'member subscriptions',
  administrators: 'administrators',
  deleteMember: 'delete member',
  newAlert: 'new alert',
  createAlert: 'create alert',
  newMessage: 'new message',
  createMessage: 'create message',
  newsTags: 'news tags',
  // Workspace resources (spec 002 §3 Workspace 'resources', §7; the Matatika reference's resources)
  resources: 'resources',
  createResource: 'create resource',
  updateResource: 'update resource',
  deleteResource: 'delete resource',
  // Lineage (issue 41): a dataset's columns back to the runs that loaded their tables and the
  // sources they extracted; a pipeline's impact. Inside a lineage body a table links to its store
  // table, its pipeline and the runs that loaded it, a dataset to its own lineage (admins: the Lab's)
  lineage: 'lineage',
  dataset: 'dataset',
  pipeline: 'pipeline',
  table: 'table',
  loadedBy: 'loaded by',
  latestRun: 'latest run',
  /** the OpenLineage events the workspace's runs and publishes emitted, each as sent and with its delivery (admins) */
  lineageEvents: 'lineage events',
  /** inside that list: the pipeline run (job) an event reports */
  run: 'run',
  // The reference's last seven endpoints (issue 38): a list initialised before its workspace is
  // chosen, a component's removal, the invitations the caller sent, the caller's profiles
  newChannel: 'new channel',
  deleteDatacomponent: 'delete datacomponent',
  sentInvitations: 'sent invitations',
  profiles: 'profiles',
  /** POST several of a workspace's resources in one body (admins) */
  publishResources: 'publish resources',
} as const;
