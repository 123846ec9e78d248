import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../server/db/schema';
import { DEMO } from '../../server/seed';
import { REL } from '../../src/domain/relations';
import { memberSchema, membersCollectionSchema } from '../../src/domain/resources';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type Person, type World } from './helpers/world';

// Members and administrators of the Matatika reference: one member, the administrators, the
// administrator flag, and removal by role (an owner removes editors and members, an editor
// members; an owner is never removed).

const W = DEMO.workspaceId;
let world: World;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely and asserted field by field
async function read(who: Person, path: string): Promise<any> {
  const answer = await who.api.get(path);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const memberPath = (profileId: string) => `/api/workspaces/${W}/members/${encodeURIComponent(profileId)}`;
const adminPath = (profileId: string) => `/api/workspaces/${W}/administrators/${encodeURIComponent(profileId)}`;

/** A person of the workspace with this role, made in the database (they never sign in here). */
async function person(name: string, role: MemberRole): Promise<string> {
  const id = `auth0|${crypto.randomUUID()}`;
  const db = world.server.db;
  await db.insertInto('profiles').values({ id, name, email: `${id.slice(6, 14)}@example.com`, default_workspace_id: null, features_disabled: null, can_create_workspaces: false }).execute();
  await db.insertInto('workspace_members').values({ workspace_id: W, profile_id: id, role }).execute();
  return id;
}

async function setRole(profileId: string, role: MemberRole): Promise<void> {
  await world.server.db.updateTable('workspace_members').set({ role }).where('workspace_id', '=', W).where('profile_id', '=', profileId).execute();
}

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
}, 90_000);
afterAll(() => world?.close());

describe('a member', () => {
  it('is read by every member through the list item\'s self link, with the administrator flag', async () => {
    const list = await read(world.member, `/api/workspaces/${W}/members`);
    expect(membersCollectionSchema.safeParse(list).success).toBe(true);
    const owner = embedded(list, 'members').find((m: { id: string }) => m.id === world.owner.subject);
    const one = await read(world.member, linkOf(owner, REL.self));
    expect(memberSchema.safeParse(one).success).toBe(true);
    expect(one).toMatchObject({ id: world.owner.subject, name: DEMO.owner.name, administrator: true });
    // a plain member may do nothing to anyone
    for (const rel of [REL.addAdministrator, REL.withdrawAdministrator, REL.deleteMember]) expect(hasLink(one, rel), rel).toBe(false);
    expectError(await world.member.api.call('DELETE', memberPath(world.owner.subject)), 403);
  });

  it("refuses another workspace's caller (404, as for no such id), no token (401), and an unknown member (404)", async () => {
    expectError(await world.outsider.api.get(memberPath(world.owner.subject)), 404);
    expectError(await world.outsider.api.call('DELETE', memberPath(world.member.subject)), 404);
    expectError(await world.anonymous.get(memberPath(world.owner.subject)), 401);
    expectError(await world.owner.api.get(memberPath(world.outsider.subject)), 404);
    expectError(await world.owner.api.get(memberPath('auth0|nobody')), 404);
  });
});

describe('administrators', () => {
  it('lists owners and editors to every member; an admin adds and withdraws the flag through the member\'s links', async () => {
    const listed = await read(world.member, linkOf(await read(world.member, `/api/workspaces/${W}`), REL.administrators));
    expect(embedded(listed, 'administrators').map((m: { id: string }) => m.id)).toEqual([world.owner.subject]);

    const plain = await read(world.owner, memberPath(world.member.subject));
    expect(hasLink(plain, REL.withdrawAdministrator)).toBe(false);
    expectError(await world.owner.api.call('DELETE', adminPath(world.member.subject)), 403);
    const added = await world.owner.api.call('PUT', linkOf(plain, REL.addAdministrator));
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: world.member.subject, administrator: true, role: 'editor' });
    expect(hasLink(added.body, REL.addAdministrator)).toBe(false);
    expectError(await world.owner.api.call('PUT', adminPath(world.member.subject)), 403);
    expect(embedded(await read(world.member, `/api/workspaces/${W}/administrators`), 'administrators').map((m: { id: string }) => m.id).sort()).toEqual([world.owner.subject, world.member.subject].sort());

    const withdrawn = await world.owner.api.call('DELETE', linkOf(added.body, REL.withdrawAdministrator));
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ administrator: false, role: 'member' });
  });

  it('never touches an owner, and refuses a plain member and outsiders', async () => {
    const owner = await read(world.owner, memberPath(world.owner.subject));
    for (const rel of [REL.addAdministrator, REL.withdrawAdministrator, REL.deleteMember]) expect(hasLink(owner, rel), rel).toBe(false);
    expectError(await world.owner.api.call('DELETE', adminPath(world.owner.subject)), 403);
    expectError(await world.member.api.call('PUT', adminPath(world.member.subject)), 403);
    expectError(await world.outsider.api.call('PUT', adminPath(world.member.subject)), 404);
    expectError(await world.outsider.api.get(`/api/workspaces/${W}/administrators`), 404);
    expectError(await world.anonymous.call('PUT', adminPath(world.member.subject)), 401);
  });
});

describe('removal', () => {
  it('lets an editor remove a plain member but not another editor or an owner', async () => {
    await setRole(world.member.subject, 'editor');
    try {
      const plain = await person('Pat Plain', 'member');
      const editor = await person('Eve Editor', 'editor');
      const seenPlain = await read(world.member, memberPath(plain));
      expect(hasLink(seenPlain, REL.deleteMember)).toBe(true);
      expect(hasLink(await read(world.member, memberPath(editor)), REL.deleteMember)).toBe(false);
      expect(hasLink(await read(world.member, memberPath(world.owner.subject)), REL.deleteMember)).toBe(false);
      expectError(await world.member.api.call('DELETE', memberPath(editor)), 403);
      expectError(await world.member.api.call('DELETE', memberPath(world.owner.subject)), 403);

      expect((await world.member.api.call('DELETE', linkOf(seenPlain, REL.deleteMember))).status).toBe(204);
      expectError(await world.member.api.get(memberPath(plain)), 404);
    } finally {
      await setRole(world.member.subject, 'member');
    }
  });

  it('lets an owner remove an editor, withdrawing the invitation that let them in; the removed person reads nothing more', async () => {
    // the outsider joins through an invitation, becomes an administrator, and is removed
    const invited = await world.owner.api.call('POST', `/api/workspaces/${W}/invitations`, { email: world.outsider.email });
    expect((await world.outsider.api.call('PATCH', `/api/invitations/${invited.body.id}`, {})).status).toBeLessThan(300);
    const joined = await read(world.owner, memberPath(world.outsider.subject));
    const promoted = await world.owner.api.call('PUT', linkOf(joined, REL.addAdministrator));
    expect(hasLink(promoted.body, REL.deleteMember)).toBe(true);
    const profiles = world.server.db.updateTable('profiles');
    await profiles.set({ default_workspace_id: W }).where('id', '=', world.outsider.subject).execute();

    expect((await world.owner.api.call('DELETE', linkOf(promoted.body, REL.deleteMember))).status).toBe(204);
    const after = await world.server.db.selectFrom('profiles').select('default_workspace_id').where('id', '=', world.outsider.subject).executeTakeFirstOrThrow();
    expect(after.default_workspace_id).toBeNull();
    expectError(await world.outsider.api.get(`/api/workspaces/${W}`), 404);
    expect((await read(world.owner, `/api/invitations/${invited.body.id}`)).status).toBe('REVOKED');
    expectError(await world.owner.api.call('DELETE', memberPath(world.outsider.subject)), 404);
  });
});
