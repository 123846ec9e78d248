import { randomUUID } from 'node:crypto';
import { generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { sql } from 'kysely';
import type { Db } from '../../../server/db/database';
import { createIdpUser } from '../../../server/identity/users';
import type { ResourceKind } from '../../../server/policy/access';
import type { RegisteredRoute } from '../../../server/routes';
import { DEMO } from '../../../server/seed';
import { clientCredentialsToken, signIn } from '../../support/auth';
import { apiClient, type ApiClient } from '../helpers/http';
import type { Person, World } from '../helpers/world';

// What the generated suites need: one resource of each kind in the demo workspace (A), a caller
// who is admin of another workspace (B), and every kind of bad credential.

export type Fixtures = Record<ResourceKind, string> & { datasetAlias: string; resourcePath: string };

export interface Callers {
  /** verified, owner of workspace B, no role in A */
  outsider: Person;
  /** an API key of the outsider */
  outsiderKey: ApiClient;
  /** the plain member of A */
  member: Person;
  noToken: ApiClient;
  forged: ApiClient;
  expired: ApiClient;
}

export async function prepare(world: World): Promise<{ fixtures: Fixtures; callers: Callers }> {
  const db = world.server.db;
  const owner = world.owner;
  // The outsider administers a workspace of their own, so admin relations exist for them elsewhere.
  const elsewhere = randomUUID();
  await db.insertInto('workspaces').values({ id: elsewhere, name: 'Elsewhere', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
  await login(world.outsider);
  await db.insertInto('workspace_members').values({ workspace_id: elsewhere, profile_id: world.outsider.subject, role: 'owner' }).execute();

  const job = await db.selectFrom('jobs').select('id').where('workspace_id', '=', DEMO.workspaceId).executeTakeFirstOrThrow();
  const dataset = await db
    .selectFrom('datasets')
    .select(['id', 'alias'])
    .where('workspace_id', '=', DEMO.workspaceId)
    .where('raw_data', 'is not', null)
    .where('alias', 'is not', null)
    .executeTakeFirstOrThrow();
  const channel = await db.selectFrom('channels').select('id').where('workspace_id', '=', DEMO.workspaceId).where('type', '=', 'SOURCE').executeTakeFirstOrThrow();
  const notification = await db.selectFrom('notifications').select('id').where('profile_id', '=', owner.subject).executeTakeFirstOrThrow();
  const invited = await owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/invitations`, { email: 'leak-matrix@example.com' });
  const ownerKey = await createKey(owner.api, 'leak matrix (owner)');
  const outsiderKey = await createKey(world.outsider.api, 'leak matrix (outsider)');
  const outsiderKeyToken = await clientCredentialsToken(world.baseUrl, outsiderKey.clientId, outsiderKey.clientSecret);
  const pipeline = await createPipeline(owner.api, 'Contract fixture');
  const store = await createDataStore(owner.api, 'Contract fixture store');
  const comment = await createComment(owner.api, dataset.id);
  const subscription = await owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/subscriptions`, { type: 'ALERTS' });
  if (subscription.status !== 201) throw new Error(`subscription not created: ${subscription.status} ${JSON.stringify(subscription.body)}`);
  const alert = await createAlert(owner.api, dataset.id);
  const resourcePath = await createResource(owner.api, 'contract/fixture.csv');
  const plugin = await createOwnPlugin(owner.api, 'tap-contract');

  const fixtures: Fixtures = {
    root: '',
    profile: owner.subject,
    workspace: DEMO.workspaceId,
    workspaceOrDraft: DEMO.workspaceId,
    job: job.id,
    dataset: dataset.id,
    channel: channel.id,
    datasetAlias: dataset.alias ?? '',
    invitation: String(invited.body.id),
    apikey: ownerKey.id,
    apikeyOrDraft: ownerKey.id,
    notification: notification.id,
    pipeline: pipeline.id,
    dataComponent: pipeline.componentId,
    // A store of the workspace's own (not the embedded default), so 'update datastore' is offered and probed.
    dataStore: store.id,
    // A plugin is named by its workspace and the path's type and name (see urlOf).
    dataPlugin: DEMO.workspaceId,
    // The demo workspace's own plugin, by its global id (a catalogue plugin is everybody's to read).
    globalDataPlugin: plugin.id,
    globalDataPluginOrDraft: plugin.id,
    comment: comment.id,
    // The owner's subscription to the workspace.
    subscription: String(subscription.body.id),
    alert: alert.id,
    // A member is named by its workspace and the path's `:memberId` (urlOf puts the owner's profile id there).
    member: DEMO.workspaceId,
    // A resource is named by its workspace and the path's wildcard (see urlOf).
    workspaceResource: DEMO.workspaceId,
    workspaceResourceOrDraft: DEMO.workspaceId,
    resourcePath,
  };
  return {
    fixtures,
    callers: {
      outsider: world.outsider,
      outsiderKey: apiClient(world.baseUrl, outsiderKeyToken.accessToken),
      member: world.member,
      noToken: world.anonymous,
      forged: apiClient(world.baseUrl, await forgedToken(world.baseUrl, owner.subject)),
      expired: apiClient(world.baseUrl, await expiredToken(db, world.baseUrl, owner.subject)),
    },
  };
}

/**
 * An administrator (role 'editor') of the demo workspace who owns nothing: an identity provider
 * user signed in as the world's people are, with a profile (first sign-in) and a membership row.
 */
export async function addEditor(world: World): Promise<Person> {
  const who = { name: 'Edith Editor', email: 'editor@example.com', password: 'editor-password' };
  const user = await createIdpUser(world.server.db, { ...who, emailVerified: true });
  const tokens = await signIn(world.baseUrl, { email: who.email, password: who.password });
  const editor: Person = { subject: user.subject, email: who.email, name: who.name, token: tokens.accessToken, api: apiClient(world.baseUrl, tokens.accessToken) };
  await login(editor);
  await world.server.db.insertInto('workspace_members').values({ workspace_id: DEMO.workspaceId, profile_id: editor.subject, role: 'editor' }).execute();
  return editor;
}

async function login(person: Person): Promise<void> {
  await person.api.call('POST', `/api/profiles/${encodeURIComponent(person.subject)}/login`, { id: person.subject, name: person.name, email: person.email });
}

async function createKey(api: ApiClient, name: string): Promise<{ id: string; clientId: string; clientSecret: string }> {
  const draft = await api.call('POST', '/api/apikeys');
  const created = await api.call('PUT', String(draft.body._links['create apikey'].href), { name });
  if (created.status !== 201) throw new Error(`key not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: String(created.body.id), clientId: String(created.body.clientId), clientSecret: String(created.body.clientSecret) };
}

/** A comment of the owner's on the dataset, through initialise and 'update comment'. */
async function createComment(api: ApiClient, datasetId: string): Promise<{ id: string }> {
  const draft = await api.call('POST', `/api/datasets/${datasetId}/comments`);
  const created = await api.call('PUT', String(draft.body._links['update comment'].href), { message: 'Contract fixture comment', datasetId });
  if (created.status !== 201) throw new Error(`comment not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: String(created.body.id) };
}

/** An alert raised by hand on the dataset, through initialise and 'create alert'. */
async function createAlert(api: ApiClient, datasetId: string): Promise<{ id: string }> {
  const draft = await api.call('POST', `/api/datasets/${datasetId}/alerts`);
  const created = await api.call('PUT', String(draft.body._links['create alert'].href), { detail: 'Contract fixture alert' });
  if (created.status !== 201) throw new Error(`alert not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: String(created.body.id) };
}

/** A workspace resource of the demo workspace, uploaded by its admin as the reference's JSON Resource. */
async function createResource(api: ApiClient, path: string): Promise<string> {
  const created = await api.call('PUT', `/api/workspaces/${DEMO.workspaceId}/resources/${path}`, { content: 'a,b\n1,2\n', contentType: 'text/csv' });
  if (created.status !== 201) throw new Error(`resource not created: ${created.status} ${JSON.stringify(created.body)}`);
  return path;
}

/** A plugin of the demo workspace's own, through the global catalogue's 'new dataplugin' and 'create dataplugin'. */
async function createOwnPlugin(api: ApiClient, name: string): Promise<{ id: string }> {
  const draft = await api.call('POST', '/api/dataplugins');
  const created = await api.call('PUT', String(draft.body._links['create dataplugin'].href), {
    workspace: DEMO.workspaceId,
    pluginType: 'EXTRACTOR',
    name,
    variant: 'contract',
    settings: [{ name: 'api_key', kind: 'password' }],
  });
  if (created.status !== 201) throw new Error(`plugin not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: String(created.body.id) };
}

/** A runnable pipeline of the demo extractor into the default store, through initialise and 'create pipeline'. */
async function createPipeline(api: ApiClient, name: string): Promise<{ id: string; componentId: string; storeId: string }> {
  const draft = await api.call('POST', `/api/workspaces/${DEMO.workspaceId}/pipelines`);
  const created = await api.call('PUT', String(draft.body._links['create pipeline'].href), { name, dataComponents: ['extractors/tap-demo', 'loaders/target-store'] });
  if (created.status !== 201) throw new Error(`pipeline not created: ${created.status} ${JSON.stringify(created.body)}`);
  const embedded = created.body._embedded;
  return { id: String(created.body.id), componentId: String(embedded.dataComponents[0].id), storeId: String(embedded.datastore.id) };
}

/** A PostgreSQL store (its connection check stays queued: no runner runs in the API tests). */
async function createDataStore(api: ApiClient, name: string): Promise<{ id: string }> {
  const created = await api.call('POST', `/api/workspaces/${DEMO.workspaceId}/datastores`, { name, dataPlugin: 'loaders/target-postgres--builtin', properties: { host: '127.0.0.1', port: 1, database: 'contract', user: 'contract', password: 'contract-secret' } });
  if (created.status !== 201) throw new Error(`data store not created: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: String(created.body.id) };
}

const claims = (baseUrl: string, subject: string) => ({ sub: subject, email: 'owner@example.com', email_verified: true, aud: `${baseUrl}/api`, iss: `${baseUrl}/idp/` });

/** A well-formed token for the owner, signed by a key the provider never had. */
async function forgedToken(baseUrl: string, subject: string): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims(baseUrl, subject)).setProtectedHeader({ alg: 'RS256' }).setIssuedAt().setExpirationTime('1h').sign(privateKey);
}

/** A token for the owner signed with the provider's own key, expired an hour ago. */
async function expiredToken(db: Db, baseUrl: string, subject: string): Promise<string> {
  const row = await db.selectFrom('idp_keys').select('value').where('kind', '=', 'signing').executeTakeFirstOrThrow();
  const jwk = (row.value as unknown as { keys: JWK[] }).keys[0]!;
  const key = await importJWK(jwk, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims(baseUrl, subject))
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid ?? '' })
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .sign(key);
}

/** Each kind's own view (its GET): what a caller is offered on it, in `_links` (nothing when refused). Shared by the leak matrix and the permission table. */
export const SELF_URL: Record<ResourceKind, (f: Fixtures) => string> = {
  root: () => '/api/',
  profile: (f) => `/api/profiles/${encodeURIComponent(f.profile)}`,
  workspace: (f) => `/api/workspaces/${f.workspace}`,
  workspaceOrDraft: (f) => `/api/workspaces/${f.workspace}`,
  job: (f) => `/api/jobs/${f.job}`,
  dataset: (f) => `/api/datasets/${f.dataset}`,
  channel: (f) => `/api/channels/${f.channel}`,
  invitation: (f) => `/api/invitations/${f.invitation}`,
  apikey: (f) => `/api/apikeys/${f.apikey}`,
  apikeyOrDraft: (f) => `/api/apikeys/${f.apikey}`,
  notification: (f) => `/api/notifications/${f.notification}`,
  pipeline: (f) => `/api/pipelines/${f.pipeline}`,
  dataComponent: (f) => `/api/datacomponents/${f.dataComponent}`,
  dataStore: (f) => `/api/datastores/${f.dataStore}`,
  dataPlugin: (f) => `/api/workspaces/${f.workspace}/dataplugins/extractors/tap-demo--builtin`,
  globalDataPlugin: (f) => `/api/dataplugins/${f.globalDataPlugin}`,
  globalDataPluginOrDraft: (f) => `/api/dataplugins/${f.globalDataPluginOrDraft}`,
  comment: (f) => `/api/comments/${f.comment}`,
  subscription: (f) => `/api/subscriptions/${f.subscription}`,
  alert: (f) => `/api/alerts/${f.alert}`,
  member: (f) => `/api/workspaces/${f.workspace}/members/${encodeURIComponent(f.profile)}`,
  workspaceResource: (f) => `/api/workspaces/${f.workspace}/resources/${f.resourcePath}`,
  workspaceResourceOrDraft: (f) => `/api/workspaces/${f.workspace}/resources/${f.resourcePath}`,
};

/**
 * The route's URL with its parameters filled from the fixtures (`override` replaces the resource id).
 * No parameter names the root, so a root route's parameters (a login's profile, an initialised
 * channel's id) get the owner's profile id, as other parameters do: never an empty segment.
 */
export function urlOf(route: RegisteredRoute, fixtures: Fixtures, override?: string): string {
  const kind = route.meta?.guard.resource ?? 'root';
  const paramName = route.meta?.guard.param ?? 'id';
  return route.url
    .replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(override ?? (name === paramName && kind !== 'root' ? fixtures[kind] : fixtures.profile)))
    .replace(/\*$/, override ?? (kind === 'workspaceResource' || kind === 'workspaceResourceOrDraft' ? fixtures.resourcePath : fixtures.datasetAlias));
}

/** Every route of the API (HEAD answers as GET does and is left out). */
export function apiRoutes(world: World): RegisteredRoute[] {
  return world.server.server.routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
}

/**
 * A digest of every row of every table but the identity provider's session store: equal digests
 * mean nothing was written.
 */
export async function fingerprint(db: Db): Promise<string> {
  const tables = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
      AND table_name NOT IN ('idp_payloads', 'kysely_migration', 'kysely_migration_lock')
    ORDER BY table_name`.execute(db);
  const parts = tables.rows.map(
    ({ table_name }) => sql`SELECT ${table_name} AS t, coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') AS d FROM ${sql.table(table_name)} x`,
  );
  const { rows } = await sql<{ t: string; d: string }>`${sql.join(parts, sql` UNION ALL `)}`.execute(db);
  return rows.map((r) => `${r.t}:${r.d}`).sort().join('|');
}
