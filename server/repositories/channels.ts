import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { ChannelsTable } from '../db/schema';
import type { Paging } from '../http/hal';

export type ChannelRow = Selectable<ChannelsTable>;

export interface ChannelFilter {
  type: string | undefined;
  /** only channels that hold at least one dataset */
  containsDataset: boolean;
}

const SORTABLE = { name: 'name', lastModified: 'last_modified', created: 'created' } as const;
export const CHANNEL_SORT_FIELDS = Object.keys(SORTABLE);

/** The workspace's channels, most recently changed first unless the paging sorts otherwise. */
export async function channelsOf(db: Db, workspaceId: string, filter: ChannelFilter, paging: Paging): Promise<{ items: ChannelRow[]; total: number }> {
  let base = db.selectFrom('channels as c').where('c.workspace_id', '=', workspaceId);
  if (filter.type !== undefined) base = base.where('c.type', '=', filter.type);
  if (filter.containsDataset) {
    base = base.where((eb) => eb.exists(eb.selectFrom('datasets as d').select('d.id').whereRef('d.channel_id', '=', 'c.id')));
  }
  const field = SORTABLE[(paging.sort?.field ?? 'lastModified') as keyof typeof SORTABLE];
  const [items, count] = await Promise.all([
    base
      .selectAll('c')
      .orderBy(`c.${field}`, paging.sort?.direction ?? 'desc')
      .orderBy('c.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}
