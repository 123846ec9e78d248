import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, seedDemo } from '../../server/seed';
import { DEMO_DATASETS } from '../../server/seed/demoContent';
import { DEMO_SHOWCASE } from '../../server/seed/showcase';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const counts = async () => {
  const count = async (table: 'workspaces' | 'datasets' | 'profiles' | 'idp_users' | 'notifications' | 'jobs' | 'channels') =>
    Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    workspaces: await count('workspaces'),
    datasets: await count('datasets'),
    channels: await count('channels'),
    profiles: await count('profiles'),
    users: await count('idp_users'),
    notifications: await count('notifications'),
    jobs: await count('jobs'),
  };
};

describe('seedDemo', () => {
  it('creates the demo once and does nothing on later starts, even when two start together', async () => {
    const log = server.server.app.log;
    await Promise.all([seedDemo(server.db, log), seedDemo(server.db, log)]);
    const first = await counts();
    // the sandbox's one dataset; three source channels and the owner's list in the demo, one in the sandbox
    expect(first).toMatchObject({ workspaces: 2, datasets: DEMO_DATASETS.length + DEMO_SHOWCASE.length + 1, channels: 5, profiles: 2, users: 3, jobs: 3 });
    expect(first.notifications).toBeGreaterThanOrEqual(5);
    await seedDemo(server.db, log);
    expect(await counts()).toEqual(first);
  });

  it('seeds the people the README names: owner and member verified, the third not', async () => {
    const users = await server.db.selectFrom('idp_users').select(['email', 'email_verified']).orderBy('email').execute();
    expect(users).toEqual([
      { email: DEMO.member.email, email_verified: true },
      { email: DEMO.owner.email, email_verified: true },
      { email: DEMO.unverified.email, email_verified: false },
    ]);
    const profiles = await server.db.selectFrom('profiles').select(['email', 'can_create_workspaces', 'default_workspace_id']).orderBy('email').execute();
    expect(profiles).toEqual([
      { email: DEMO.member.email, can_create_workspaces: false, default_workspace_id: DEMO.workspaceId },
      { email: DEMO.owner.email, can_create_workspaces: true, default_workspace_id: DEMO.workspaceId },
    ]);
    const sandboxMembers = await server.db.selectFrom('workspace_members').select('role').where('workspace_id', '=', DEMO.sandboxWorkspaceId).execute();
    expect(sandboxMembers).toEqual([{ role: 'owner' }]);
  });
});
