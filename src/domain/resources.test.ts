import { describe, expect, it } from 'vitest';
import { featureSwitches, questionsEnabled } from './features';
import { embeddedList, hasLink, linkHref } from './hal';
import { landingRoute } from './landing';
import { parseWith } from './parse';
import { canSwitchToLab, isOwner, isWorkspaceAdmin } from './permissions';
import {
  apiKeySchema,
  apiKeysCollectionSchema,
  channelSchema,
  commentWriteSchema,
  dataComponentSchema,
  dataComponentsCollectionSchema,
  dataPluginSchema,
  dataPluginsCollectionSchema,
  datasetSchema,
  dataStoreSchema,
  dataStoresCollectionSchema,
  environmentSchema,
  metricSchema,
  metricsSchema,
  pipelineSchema,
  pipelinesCollectionSchema,
  pipelineWriteSchema,
  SUBSCRIPTION_TYPES,
  subscriptionSchema,
  subscriptionWriteSchema,
  datasetsCollectionSchema,
  invitationSchema,
  invitationsCollectionSchema,
  JOB_STATUSES,
  jobSchema,
  jobsCollectionSchema,
  logEntrySchema,
  memberSchema,
  membersCollectionSchema,
  notificationSchema,
  notificationsCollectionSchema,
  profileSchema,
  questionAnswerSchema,
  rootSchema,
  tagSchema,
  workspaceSchema,
  workspacesCollectionSchema,
} from './resources';

const page = (totalElements: number) => ({ size: 20, totalElements, totalPages: totalElements === 0 ? 0 : 1, number: 0 });

const workspace = {
  id: '7d3f1f2e-0000-4000-8000-000000000001',
  name: 'Acme',
  imageUrl: null,
  defaultEnvironment: 'default',
  default: true,
  appProperties: { HOME_PAGE: 'news', FEATURE_QUESTIONS: 'true' },
  status: 'READY',
  domains: ['acme.example'],
  repositoryUrl: 'https://git.example/acme.git',
  _links: {
    self: { href: 'http://localhost:8080/api/workspaces/7d3f' },
    'update delete workspace': { href: 'http://localhost:8080/api/workspaces/7d3f' },
    datacomponents: { href: 'http://localhost:8080/api/workspaces/7d3f/datacomponents' },
  },
};

const job = {
  id: 'j1',
  type: 'PIPELINE_RUN',
  status: 'RUNNING',
  created: '2024-05-01T10:00:00Z',
  startTime: '2024-05-01T10:00:01Z',
  endTime: null,
  triggeredBy: null,
  attempt: 1,
  maxAttempts: 3,
  exitCode: null,
  _embedded: { profile: { email: 'ada@example.com', name: 'Ada' } },
  _links: { logs: { href: '/api/jobs/j1/logs' }, 'delete job': { href: '/api/jobs/j1' } },
};

describe('resource schemas accept the server shapes', () => {
  it('root', () => {
    const root = rootSchema.parse({ _links: { 'new apikey': { href: '/api/apikeys' }, self: { href: '/api/' } } });
    expect(linkHref(root, 'new apikey')).toBe('/api/apikeys');
  });

  it('profile, with null default workspace and features', () => {
    expect(profileSchema.parse({ id: 'p', name: 'A', email: 'a@b.co', defaultWorkspace: null, featuresDisabled: null }).defaultWorkspace).toBeNull();
    expect(profileSchema.parse({ id: 'p', name: 'A', email: 'a@b.co', defaultWorkspace: { id: 'w' }, featuresDisabled: 'APP' }).featuresDisabled).toBe('APP');
  });

  it('workspace, keeping fields this client does not model', () => {
    const parsed = workspaceSchema.parse(workspace);
    expect(parsed.appProperties?.['HOME_PAGE']).toBe('news');
    expect(parsed['repositoryUrl']).toBe('https://git.example/acme.git');
  });

  it('member, invitation, notification, api key, question answer, dataset, tag, channel, log entry', () => {
    expect(memberSchema.parse({ id: 'm', name: 'M', email: null, handle: 'm' }).handle).toBe('m');
    expect(
      invitationSchema.parse({ email: 'x@y.z', workspace: { id: 'w', name: 'W' }, _links: { 'accept invitation': { href: '/i/1' } } }).workspace?.id,
    ).toBe('w');
    expect(notificationSchema.parse({ id: 'n', type: 'JOB_ENDED', message: null, resolved: false, created: '2024-01-01T00:00:00Z', actor: { name: 'Bot' } }).actor?.name).toBe('Bot');
    expect(apiKeySchema.parse({ id: 'k', name: 'default', clientId: 'c', clientSecret: null, _links: { 'update apikey': { href: '/k' } } }).clientId).toBe('c');
    expect(questionAnswerSchema.parse({ alias: 'sales/by-month' }).alias).toBe('sales/by-month');
    expect(questionAnswerSchema.parse({}).id).toBeUndefined();
    const dataset = datasetSchema.parse({ id: 'd', title: 'Sales', alias: 'a/b', visualisation: '{"chartjs-chart":{}}', viewCount: 3, likeCount: 0, tags: [{ id: 't', name: 'finance' }], rawData: '[]' });
    expect(dataset.tags?.[0]?.name).toBe('finance');
    expect(dataset['rawData']).toBe('[]');
    expect(tagSchema.parse({ name: 'x' }).name).toBe('x');
    expect(channelSchema.parse({ id: 'c', name: 'Marketing', picture: null }).name).toBe('Marketing');
    expect(logEntrySchema.parse({ sequence: 4, timestamp: '2024-01-01T00:00:00Z', message: 'line' }).sequence).toBe(4);
  });

  it('job with every status of the spec', () => {
    for (const status of JOB_STATUSES) expect(jobSchema.parse({ ...job, status }).status).toBe(status);
    expect(jobSchema.parse(job)._embedded?.profile?.email).toBe('ada@example.com');
  });
});

describe('resource schemas name the wrong field', () => {
  const cases: [string, ReturnType<typeof parseWith>, string][] = [
    ['profile email', parseWith(profileSchema, { id: 'p', name: 'A', email: 5 }), 'email'],
    ['workspace app property', parseWith(workspaceSchema, { ...workspace, appProperties: { HOME_PAGE: null } }), 'appProperties.HOME_PAGE'],
    ['workspace link', parseWith(workspaceSchema, { ...workspace, _links: { self: { href: null } } }), '_links.self.href'],
    ['job status', parseWith(jobSchema, { ...job, status: 'UNKNOWN' }), 'status'],
    ['job attempt', parseWith(jobSchema, { ...job, attempt: 1.5 }), 'attempt'],
    ['job profile email', parseWith(jobSchema, { ...job, _embedded: { profile: { email: 1 } } }), '_embedded.profile.email'],
    ['notification resolved', parseWith(notificationSchema, { id: 'n', type: 't', resolved: 'no', created: 'x' }), 'resolved'],
    ['log sequence', parseWith(logEntrySchema, { sequence: '1', timestamp: 't', message: 'm' }), 'sequence'],
    ['dataset tag', parseWith(datasetSchema, { id: 'd', title: 't', tags: [{ id: 't' }] }), 'tags.0.name'],
    ['invitation workspace', parseWith(invitationSchema, { email: 'e', workspace: {} }), 'workspace.id'],
  ];

  it.each(cases)('%s', (_label, result, field) => {
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.field)).toContain(field);
  });
});

describe('collections', () => {
  it.each([
    ['workspaces', workspacesCollectionSchema, { id: 'w', name: 'W' }],
    ['members', membersCollectionSchema, { id: 'm', name: 'M' }],
    ['jobs', jobsCollectionSchema, job],
    ['notifications', notificationsCollectionSchema, { id: 'n', type: 't', resolved: true, created: 'x' }],
    ['invitations', invitationsCollectionSchema, { email: 'e@x.io' }],
    ['apikeys', apiKeysCollectionSchema, { id: 'k' }],
    ['datasets', datasetsCollectionSchema, { id: 'd', title: 'D' }],
  ] as const)('%s: embedded list, and empty when Spring omits _embedded', (key, schema, item) => {
    const full = schema.parse({ _embedded: { [key]: [item, item] }, page: page(2), _links: { self: { href: `/${key}` } } });
    expect(embeddedList(full, key)).toHaveLength(2);
    const empty = schema.parse({ page: page(0), _links: { self: { href: `/${key}` } } });
    expect(embeddedList(empty, key)).toEqual([]);
    expect(empty.page?.totalElements).toBe(0);
  });

  it('types the embedded items', () => {
    const parsed = workspacesCollectionSchema.parse({ _embedded: { workspaces: [{ id: 'w', name: 'W' }] } });
    const names: string[] = embeddedList(parsed, 'workspaces').map((w) => w.name);
    expect(names).toEqual(['W']);
  });

  it('rejects an item of the wrong shape', () => {
    expect(jobsCollectionSchema.safeParse({ _embedded: { jobs: [{ ...job, status: 'DONE' }] } }).success).toBe(false);
  });
});

describe('parsed resources feed the domain rules directly', () => {
  it('workspace, jobs and profile', () => {
    const parsedWorkspace = workspaceSchema.parse(workspace);
    const parsedJobs = embeddedList(jobsCollectionSchema.parse({ _embedded: { jobs: [{ ...job, type: 'PROFILE_INIT', status: 'QUEUED' }] } }), 'jobs');
    const parsedProfile = profileSchema.parse({ id: 'p', name: 'A', email: 'a@b.co', featuresDisabled: 'APP', _links: { 'new workspace': { href: '/w' } } });
    expect(landingRoute({ workspace: parsedWorkspace, jobs: parsedJobs })).toBe(`/setup/tasks/${workspace.id}`);
    expect(isWorkspaceAdmin(parsedWorkspace)).toBe(true);
    expect(isOwner(parsedProfile)).toBe(true);
    expect(canSwitchToLab(parsedWorkspace, featureSwitches(null, parsedProfile))).toBe(false);
    expect(questionsEnabled(parsedWorkspace)).toBe(true);
  });
});

describe('Lab resource schemas (spec 001 §3)', () => {
  const plugin = {
    id: 'extractors/tap-demo--builtin',
    name: 'tap-demo',
    label: 'Demo data',
    variant: 'builtin',
    pluginType: 'EXTRACTOR',
    settings: [
      { name: 'start_date', label: 'Start date', kind: 'DATE_ISO8601', required: 'true', placeholder: null },
      { name: 'password', kind: 'PASSWORD', sensitive: true, value: null },
    ],
  };
  const component = { id: 'c1', name: 'tap-demo', dataPlugin: 'extractors/tap-demo--builtin', properties: { seed: 42 }, _embedded: { dataplugin: plugin } };
  const store = { id: 's1', name: 'Default', dataPlugin: 'loaders/target-store--builtin', managed: true, draft: false, default: true, jdbcUrl: null };
  const pipeline = {
    id: 'p1',
    name: 'Demo import',
    status: 'READY',
    draft: false,
    properties: { 'tap-demo.start_date': '2024-01-01', 'tap-demo.scale': 2 },
    schedule: '0 0 0 * * *',
    dataComponents: ['tap-demo', 'target-store'],
    actions: [],
    script: null,
    timeout: 0,
    maxRetries: 2,
    triggeredBy: [],
    _embedded: { 'latest job': job, dataComponents: [component], datastore: store },
    _links: { self: { href: '/api/pipelines/p1' }, 'create job': { href: '/api/pipelines/p1/jobs' } },
  };

  it('accepts a pipeline with its embedded latest job, components and store', () => {
    const parsed = pipelineSchema.parse(pipeline);
    expect(parsed._embedded?.['latest job']?.status).toBe('RUNNING');
    expect(parsed._embedded?.dataComponents?.[0]?._embedded?.dataplugin?.settings?.[1]?.sensitive).toBe(true);
    expect(parsed._embedded?.datastore?.default).toBe(true);
    expect(hasLink(parsed, 'create job')).toBe(true);
  });

  it('accepts an initialised pipeline that has no id yet', () => {
    expect(pipelineSchema.parse({ name: null, draft: true, _links: { 'draft pipeline': { href: '/x' } } }).id).toBeUndefined();
  });

  it('accepts environment, metrics and subscription bodies', () => {
    const env = environmentSchema.parse({ variables: { TAP_DEMO_SEED: { value: '42', sensitive: false }, TAP_X_PASSWORD: { value: '***', sensitive: true } } });
    expect(env.variables['TAP_X_PASSWORD']?.value).toBe('***');
    const metrics = metricsSchema.parse({ metrics: [{ jobId: 'j', status: 'COMPLETE', created: 'x', duration: 1.5, rowsLoaded: 10 }] });
    expect(metrics.metrics[0]?.rowsLoaded).toBe(10);
    for (const type of SUBSCRIPTION_TYPES) expect(subscriptionSchema.parse({ id: 's', type }).type).toBe(type);
    expect(subscriptionWriteSchema.safeParse({ type: 'NONE' }).success).toBe(false);
  });

  it('pipeline write body: timeout and retries are non-negative integers', () => {
    expect(pipelineWriteSchema.safeParse({ name: 'a', timeout: -1 }).success).toBe(false);
    expect(pipelineWriteSchema.safeParse({ name: 'a', maxRetries: 1.5 }).success).toBe(false);
    expect(pipelineWriteSchema.safeParse({ name: 'a', timeout: 0, maxRetries: 3, schedule: null }).success).toBe(true);
  });

  it.each([
    ['pipelines', pipelinesCollectionSchema, pipeline],
    ['datacomponents', dataComponentsCollectionSchema, component],
    ['dataplugins', dataPluginsCollectionSchema, plugin],
    ['datastores', dataStoresCollectionSchema, store],
  ] as const)('%s collection', (key, schema, item) => {
    expect(embeddedList(schema.parse({ _embedded: { [key]: [item] }, page: page(1) }), key)).toHaveLength(1);
    expect(embeddedList(schema.parse({ page: page(0) }), key)).toEqual([]);
  });

  it.each([
    ['pipeline timeout', parseWith(pipelineSchema, { ...pipeline, timeout: 'soon' }), 'timeout'],
    ['pipeline components', parseWith(pipelineSchema, { ...pipeline, dataComponents: [1] }), 'dataComponents.0'],
    ['setting name', parseWith(dataPluginSchema, { ...plugin, settings: [{ kind: 'STRING' }] }), 'settings.0.name'],
    ['environment flag', parseWith(environmentSchema, { variables: { A: { value: 'x', sensitive: 'no' } } }), 'variables.A.sensitive'],
    ['metric rows', parseWith(metricSchema, { jobId: 'j', status: 'COMPLETE', created: 'x', rowsLoaded: 'many' }), 'rowsLoaded'],
    ['store name', parseWith(dataStoreSchema, { id: 's' }), 'name'],
    ['component name', parseWith(dataComponentSchema, { id: 'c' }), 'name'],
  ])('names the wrong field: %s', (_label, result, field) => {
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.field)).toContain(field);
  });
});

describe('comment write body', () => {
  it('takes a message with text in it, as written', () => {
    expect(parseWith(commentWriteSchema, { message: '  Looks right  ', datasetId: 'd1' })).toEqual({ ok: true, value: { message: '  Looks right  ', datasetId: 'd1' } });
    expect(parseWith(commentWriteSchema, { message: 'x', datasetId: 'd1', parentId: 'c1' })).toEqual({ ok: true, value: { message: 'x', datasetId: 'd1', parentId: 'c1' } });
  });

  it.each(['', ' ', ' \n\t '])('refuses the blank message %j as required', (message) => {
    expect(parseWith(commentWriteSchema, { message, datasetId: 'd1' })).toEqual({ ok: false, issues: [{ field: 'message', message: 'Message is required' }] });
  });
});
