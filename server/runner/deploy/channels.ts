import type { Db } from '../../db/database';
import { newId } from '../../repositories/ids';
import type { ApplyRequest } from './shared';

/** ChannelML: source channels created, or updated when their description or picture changed. */
export async function applyChannels(trx: Db, request: ApplyRequest, lines: string[]): Promise<void> {
  for (const definition of request.channels ?? []) {
    const existing = await trx
      .selectFrom('channels')
      .selectAll()
      .where('workspace_id', '=', request.workspaceId)
      .where('name', '=', definition.name)
      .where('type', '=', 'SOURCE')
      .orderBy('created')
      .orderBy('id')
      .executeTakeFirst();
    if (existing) {
      if (existing.description === definition.description && existing.picture === definition.picture) continue;
      await trx.updateTable('channels').set({ description: definition.description, picture: definition.picture, last_modified: new Date() }).where('id', '=', existing.id).execute();
      lines.push(`Updated channel ${definition.name} from ${definition.file}.`);
      continue;
    }
    await trx
      .insertInto('channels')
      .values({ id: newId(), workspace_id: request.workspaceId, name: definition.name, description: definition.description, picture: definition.picture, type: 'SOURCE', scope: 'WORKSPACE', creator_id: request.profileId })
      .execute();
    lines.push(`Created channel ${definition.name} from ${definition.file}.`);
  }
}
