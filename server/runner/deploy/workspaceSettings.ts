import type { Db } from '../../db/database';
import { WORKSPACE_FILE } from '../workspaceConfig';
import { sameJson, type ApplyRequest } from './shared';

/** workspace.yml's name, domains and app_properties (merged over the workspace's own: a key the file leaves out keeps its value). */
export async function applyWorkspaceSettings(trx: Db, request: ApplyRequest, lines: string[]): Promise<void> {
  const config = request.workspace;
  if (!config) return;
  const workspace = await trx.selectFrom('workspaces').select(['name', 'domains', 'app_properties']).where('id', '=', request.workspaceId).executeTakeFirstOrThrow();
  const changes: { name?: string; domains?: string; app_properties?: string } = {};
  const said: string[] = [];
  if (config.name !== undefined && config.name !== workspace.name) {
    changes.name = config.name;
    said.push('name');
  }
  if (config.domains !== undefined && !sameJson(config.domains, workspace.domains)) {
    changes.domains = JSON.stringify(config.domains);
    said.push('domains');
  }
  if (config.appProperties !== undefined) {
    const merged = { ...workspace.app_properties, ...config.appProperties };
    if (!sameJson(merged, workspace.app_properties)) {
      changes.app_properties = JSON.stringify(merged);
      said.push(`app_properties (${Object.keys(config.appProperties).length})`);
    }
  }
  if (said.length === 0) return;
  await trx.updateTable('workspaces').set({ ...changes, updated_at: new Date() }).where('id', '=', request.workspaceId).execute();
  lines.push(`Updated the workspace's ${said.join(', ')} from ${config.overlay ? `${WORKSPACE_FILE} and ${config.overlay}` : WORKSPACE_FILE}.`);
}
