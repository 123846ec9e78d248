import { randomUUID } from 'node:crypto';
import { REL } from '../../../src/domain/relations';
import { DEMO } from '../../../server/seed';
import { linkOf, type ApiClient } from '../helpers/http';
import { login, type World } from '../helpers/world';

// Shared set-up of the Lab's API tests: pipelines of the demo workspace made through the API.

/** A response body, read loosely and asserted field by field (as in helpers/http.ts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Body = Record<string, any>;

/** The outsider signs in and administers a workspace of their own: an admin, just not of the demo workspace. */
export async function outsiderWorkspace(world: World): Promise<string> {
  await login(world.outsider);
  const id = randomUUID();
  await world.server.db.insertInto('workspaces').values({ id, name: 'Outside', domains: '[]', app_properties: '{}', status: 'READY' }).execute();
  await world.server.db.insertInto('workspace_members').values({ workspace_id: id, profile_id: world.outsider.subject, role: 'owner' }).execute();
  return id;
}

/** A PostgreSQL extractor component named 'pg' in the demo workspace (created once). */
export async function givePostgresComponent(world: World): Promise<void> {
  const existing = await world.server.db.selectFrom('data_components').select('id').where('workspace_id', '=', DEMO.workspaceId).where('name', '=', 'pg').executeTakeFirst();
  if (existing) return;
  const answer = await world.owner.api.call('POST', `/api/workspaces/${DEMO.workspaceId}/datacomponents`, { name: 'pg', dataPlugin: 'extractors/tap-postgres' });
  if (answer.status !== 201) throw new Error(`component not created: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/** A runnable pipeline of the demo extractor into the default store; the pipeline body. */
export async function demoPipeline(api: ApiClient, name: string, extra: Record<string, unknown> = {}): Promise<Body> {
  const workspace = await api.get(`/api/workspaces/${DEMO.workspaceId}`);
  const draft = await api.call('POST', linkOf(workspace.body, REL.newPipeline));
  const created = await api.call('PUT', linkOf(draft.body, REL.createPipeline), { name, dataComponents: ['extractors/tap-demo', 'loaders/target-store'], ...extra });
  if (created.status !== 201) throw new Error(`pipeline not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body as Body;
}
