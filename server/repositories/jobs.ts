import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { JobsTable } from '../db/schema';
import type { Paging } from '../http/hal';

export type JobRow = Selectable<JobsTable> & { profile_email: string | null };

/** A workspace's jobs, newest first. */
export async function jobsOf(db: Db, workspaceId: string, paging: Paging): Promise<{ items: JobRow[]; total: number }> {
  const [items, count] = await Promise.all([
    db
      .selectFrom('jobs')
      .leftJoin('profiles as p', 'p.id', 'jobs.profile_id')
      .selectAll('jobs')
      .select('p.email as profile_email')
      .where('jobs.workspace_id', '=', workspaceId)
      .orderBy('jobs.created', 'desc')
      .orderBy('jobs.id')
      .limit(paging.size)
      .offset(paging.page * paging.size)
      .execute(),
    db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.total) };
}
