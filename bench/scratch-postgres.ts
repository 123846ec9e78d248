import { randomBytes } from 'node:crypto';
import { dropDatabase, withAdmin } from '../tests/support/server';

/** A fresh database on the PostgreSQL server of `adminUrl`, for one bench run; `drop()` removes it. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // the workspace roles the server made go too: roles outlive the database on the cluster
    drop: () => withAdmin(adminUrl, dropDatabase(name)),
  };
}
