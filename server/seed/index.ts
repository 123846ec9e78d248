import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import { createIdpUser } from '../identity/users';
import { notify } from '../notifications/notify';
import { newId } from '../repositories/ids';
import { DEMO_CHANNELS, DEMO_DATASETS, SANDBOX_DATASETS, datasetJson, type DemoDataset } from './demoContent';
import { seedDemoPipelines, storeDemoFiles } from './pipelines';
import { DEMO_LIST, DEMO_SHOWCASE, type ShowcaseDataset } from './showcase';

export { DEMO_PIPELINES } from './pipelines';

/** The demo's sign-ins (named in the README) and its fixed workspace ids. */
export const DEMO = {
  workspaceId: 'abcc442b-20c3-48fb-8556-de81e2800f4d',
  workspaceName: 'Demo Workspace',
  sandboxWorkspaceId: '6d57d858-3c6d-40d0-9d9e-48fa69311f24',
  sandboxWorkspaceName: 'Analytics Sandbox',
  owner: { name: 'Olivia Owner', email: 'owner@example.com', password: 'demo-owner' },
  member: { name: 'Max Member', email: 'member@example.com', password: 'demo-member' },
  unverified: { name: 'Una Verified', email: 'unverified@example.com', password: 'demo-unverified' },
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

interface SeedOptions {
  /**
   * Also the Lab's demo pipelines and their first run (server/seed/pipelines.ts). `npm start`
   * asks for them; the API tests' world does not, so its job counts stay its own.
   */
  pipelines?: boolean;
}

/**
 * Demo content, created once: runs at every start and does nothing when the demo workspace
 * exists. One transaction, behind an advisory lock, so two servers starting together on one
 * PostgreSQL seed it once and a failure leaves nothing half-made.
 */
export async function seedDemo(db: Db, log: FastifyBaseLogger, options: SeedOptions = {}): Promise<void> {
  const created = await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('seed-demo'))`.execute(trx);
    const exists = await trx.selectFrom('workspaces').select('id').where('id', '=', DEMO.workspaceId).executeTakeFirst();
    if (exists) return false;
    await seedInto(trx, new Date(), options);
    return true;
  });
  log.info({ workspace: DEMO.workspaceName, created, pipelines: created && options.pipelines === true }, created ? 'seed: demo content created' : 'seed: demo content already present');
  if (options.pipelines && !created) {
    // A restart brings the stored sample files up to the ones this server ships.
    try {
      await storeDemoFiles(db, DEMO.workspaceId);
    } catch (error) {
      log.warn({ err: error }, "seed: the demo sample files could not be stored as the demo workspace's files");
    }
  }
}

/** The demo's dashboard (DASHBOARD_CONTENT): the datasets a manager opens first, by section. */
export const DEMO_DASHBOARD = [
  '## Sales',
  '',
  '<DatasetChart alias="sales/monthly-revenue" />',
  '',
  '<DatasetChart alias="sales/targets-vs-actuals" />',
  '',
  '## Operations',
  '',
  '<DatasetChart alias="operations/orders-total" />',
  '',
  '<DatasetChart alias="operations/order-status" />',
  '',
  '## Marketing',
  '',
  '<DatasetChart alias="marketing/sessions-by-device" />',
  '',
  '<DatasetLink alias="operations/data-flow">How the demo data flows</DatasetLink>',
].join('\n');

async function seedInto(db: Db, now: Date, options: SeedOptions): Promise<void> {
  const owner = await createIdpUser(db, { ...DEMO.owner, emailVerified: true });
  const member = await createIdpUser(db, { ...DEMO.member, emailVerified: true });
  await createIdpUser(db, { ...DEMO.unverified, emailVerified: false });

  await db
    .insertInto('profiles')
    .values([
      { id: owner.subject, name: DEMO.owner.name, email: DEMO.owner.email, can_create_workspaces: true },
      { id: member.subject, name: DEMO.member.name, email: DEMO.member.email, can_create_workspaces: false },
    ])
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();

  await createWorkspace(db, DEMO.workspaceId, DEMO.workspaceName, {
    HOME_PAGE: 'feed',
    FEATURE_QUESTIONS: 'true',
    TOOLBAR_SEARCH_ALT_TEXT: 'Search all datasets',
    DASHBOARD_CONTENT: DEMO_DASHBOARD,
  });
  await addMember(db, DEMO.workspaceId, owner.subject, 'owner', '@olivia');
  await addMember(db, DEMO.workspaceId, member.subject, 'member', '@max');
  const datasetIds = await createCatalogue(db, DEMO.workspaceId, owner.subject, DEMO_CHANNELS, DEMO_DATASETS, now);
  await createShowcase(db, DEMO.workspaceId, DEMO_SHOWCASE, datasetIds, now);
  await createList(db, DEMO.workspaceId, owner.subject, datasetIds);

  await createWorkspace(db, DEMO.sandboxWorkspaceId, DEMO.sandboxWorkspaceName, { HOME_PAGE: 'feed', FEATURE_QUESTIONS: 'true' });
  await addMember(db, DEMO.sandboxWorkspaceId, owner.subject, 'owner', '@olivia');
  await createCatalogue(db, DEMO.sandboxWorkspaceId, owner.subject, [{ name: 'Experiments', description: 'Trials before they go live.' }], SANDBOX_DATASETS, now);

  await db
    .updateTable('profiles')
    .set({ default_workspace_id: DEMO.workspaceId })
    .where('id', 'in', [owner.subject, member.subject])
    .where('default_workspace_id', 'is', null)
    .execute();

  const jobIds = await createSetupJobs(db, DEMO.workspaceId, owner.subject, now);
  await createNotifications(db, { ownerId: owner.subject, memberId: member.subject, datasetIds, importJobId: jobIds.at(-1) ?? null, now });
  if (options.pipelines) await seedDemoPipelines(db, DEMO.workspaceId, owner.subject, now);
}

async function createWorkspace(db: Db, id: string, name: string, appProperties: Record<string, string>): Promise<void> {
  await db
    .insertInto('workspaces')
    .values({ id, name, domains: JSON.stringify([]), app_properties: JSON.stringify(appProperties), status: 'READY' })
    .execute();
}

async function addMember(db: Db, workspaceId: string, profileId: string, role: MemberRole, handle: string): Promise<void> {
  await db.insertInto('workspace_members').values({ workspace_id: workspaceId, profile_id: profileId, role, handle }).execute();
}

/** Channels and their datasets; returns dataset ids by alias. */
async function createCatalogue(
  db: Db,
  workspaceId: string,
  creatorId: string,
  channels: readonly { name: string; description: string }[],
  datasets: readonly DemoDataset[],
  now: Date,
): Promise<Map<string, string>> {
  const channelIds = new Map<string, string>();
  for (const channel of channels) {
    const id = newId();
    channelIds.set(channel.name, id);
    await db
      .insertInto('channels')
      .values({ id, workspace_id: workspaceId, name: channel.name, description: channel.description, type: 'SOURCE', scope: 'WORKSPACE', creator_id: creatorId })
      .execute();
  }
  const ids = new Map<string, string>();
  for (const dataset of datasets) {
    const id = newId();
    ids.set(dataset.alias, id);
    const json = datasetJson(dataset);
    const published = new Date(now.getTime() - dataset.age * DAY_MS);
    await db
      .insertInto('datasets')
      .values({
        id,
        workspace_id: workspaceId,
        channel_id: channelIds.get(dataset.channel) ?? null,
        alias: dataset.alias,
        title: dataset.title,
        description: dataset.description,
        description_content_type: 'text/markdown',
        questions: dataset.questions,
        visualisation: json.visualisation,
        metadata: json.metadata,
        raw_data: json.rawData,
        query: dataset.query ?? null,
        published,
        created: published,
        last_modified: published,
      })
      .execute();
    await db
      .insertInto('dataset_tags')
      .values(dataset.tags.map((tag) => ({ dataset_id: id, tag })))
      .execute();
  }
  return ids;
}

/** The datasets of every other visualisation kind, in the channels createCatalogue made; adds their ids by alias. */
async function createShowcase(db: Db, workspaceId: string, datasets: readonly ShowcaseDataset[], ids: Map<string, string>, now: Date): Promise<void> {
  const channels = await db.selectFrom('channels').select(['id', 'name']).where('workspace_id', '=', workspaceId).execute();
  const channelId = (name: string) => channels.find((c) => c.name === name)?.id ?? null;
  for (const dataset of datasets) {
    const id = newId();
    ids.set(dataset.alias, id);
    const published = new Date(now.getTime() - dataset.age * DAY_MS);
    await db
      .insertInto('datasets')
      .values({
        id,
        workspace_id: workspaceId,
        channel_id: channelId(dataset.channel),
        alias: dataset.alias,
        title: dataset.title,
        description: dataset.description,
        description_content_type: 'text/markdown',
        questions: null,
        visualisation: JSON.stringify(dataset.visualisation),
        metadata: dataset.metadata ? JSON.stringify(dataset.metadata) : null,
        raw_data: dataset.rawData ?? null,
        query: dataset.query ?? null,
        continuous_poll: dataset.continuousPoll ?? false,
        published,
        created: published,
        last_modified: published,
      })
      .execute();
    await db
      .insertInto('dataset_tags')
      .values(dataset.tags.map((tag) => ({ dataset_id: id, tag })))
      .execute();
  }
}

/** The owner's private demo list (a LIST channel). */
async function createList(db: Db, workspaceId: string, ownerId: string, ids: Map<string, string>): Promise<void> {
  const id = newId();
  await db
    .insertInto('channels')
    .values({ id, workspace_id: workspaceId, name: DEMO_LIST.name, description: DEMO_LIST.description, type: 'LIST', scope: 'PROFILE', creator_id: ownerId })
    .execute();
  const members = DEMO_LIST.aliases.flatMap((alias) => ids.get(alias) ?? []);
  await db
    .insertInto('channel_datasets')
    .values(members.map((datasetId) => ({ channel_id: id, dataset_id: datasetId })))
    .execute();
}

/** Finished setup tasks, so the owner lands in the Lab rather than on setup tasks. */
async function createSetupJobs(db: Db, workspaceId: string, profileId: string, now: Date): Promise<string[]> {
  const jobs = [
    { type: 'WORKSPACE_INIT', daysAgo: 14, log: ['Creating workspace project', 'Workspace ready'] },
    { type: 'PROFILE_CONFIGURE_DATASTORE', daysAgo: 14, log: ['Configuring the default data store', 'Data store ready'] },
    { type: 'PROFILE_IMPORT', daysAgo: 13, log: ['Importing the demo catalogue', 'Imported 8 datasets'] },
  ];
  const ids: string[] = [];
  for (const job of jobs) {
    const id = newId();
    ids.push(id);
    const start = new Date(now.getTime() - job.daysAgo * DAY_MS);
    const end = new Date(start.getTime() + 90_000);
    await db
      .insertInto('jobs')
      .values({ id, workspace_id: workspaceId, profile_id: profileId, type: job.type, status: 'COMPLETE', attempt: 1, max_attempts: 1, created: start, start_time: start, end_time: end })
      .execute();
    await db
      .insertInto('job_logs')
      .values(job.log.map((message, i) => ({ job_id: id, sequence: i + 1, timestamp: new Date(start.getTime() + (i + 1) * 30_000), message })))
      .execute();
  }
  return ids;
}

async function createNotifications(
  db: Db,
  seed: { ownerId: string; memberId: string; datasetIds: Map<string, string>; importJobId: string | null; now: Date },
): Promise<void> {
  const dataset = (alias: string) => seed.datasetIds.get(alias) ?? null;
  const hoursAgo = (hours: number) => new Date(seed.now.getTime() - hours * 60 * 60 * 1000);
  await notify(db, {
    at: hoursAgo(13 * 24),
    profileIds: [seed.ownerId],
    workspaceId: DEMO.workspaceId,
    type: 'JOB_ENDED',
    message: 'Import of the demo catalogue finished',
    actorName: DEMO.owner.name,
    jobId: seed.importJobId,
  });
  await notify(db, {
    at: hoursAgo(20),
    profileIds: [seed.ownerId],
    workspaceId: DEMO.workspaceId,
    type: 'DATASET_LIKE',
    message: 'Max Member liked Monthly Revenue',
    actorName: DEMO.member.name,
    datasetId: dataset('sales/monthly-revenue'),
  });
  await notify(db, {
    at: hoursAgo(6 * 24),
    profileIds: [seed.memberId],
    workspaceId: DEMO.workspaceId,
    type: 'DATASET_ACTIVITY',
    message: 'Olivia Owner published Support Tickets by Priority',
    actorName: DEMO.owner.name,
    datasetId: dataset('support-tickets'),
  });
  await notify(db, {
    at: hoursAgo(30),
    profileIds: [seed.memberId],
    workspaceId: DEMO.workspaceId,
    type: 'DATASET_COMMENT',
    message: 'Olivia Owner commented on Website Sessions by Channel',
    actorName: DEMO.owner.name,
    datasetId: dataset('marketing/website-sessions'),
  });
  // One already read each, so "all" and "unread" differ in the demo.
  await notify(db, {
    at: hoursAgo(24),
    profileIds: [seed.ownerId, seed.memberId],
    workspaceId: DEMO.workspaceId,
    type: 'DATASET_ACTIVITY',
    message: 'Olivia Owner published Monthly Revenue',
    actorName: DEMO.owner.name,
    datasetId: dataset('sales/monthly-revenue'),
  });
  await db
    .updateTable('notifications')
    .set({ resolved: true })
    .where('message', '=', 'Olivia Owner published Monthly Revenue')
    .where('profile_id', 'in', [seed.ownerId, seed.memberId])
    .execute();
}
