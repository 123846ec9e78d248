import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { DEMO } from '../../server/seed';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

// Managing invitations (spec 002 §4, §7): withdraw, delete, the admin toggle, the invitation email.

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider)]);
});
afterAll(async () => {
  await world?.close();
});

const invitationsOf = (workspaceId: string) => `/api/workspaces/${workspaceId}/invitations`;

describe('the invitation email', () => {
  it('goes through the outbox to the invited address with a link to the workspace', async () => {
    const created = await world.owner.api.call('POST', invitationsOf(DEMO.workspaceId), { email: world.outsider.email });
    expect(created.status).toBe(201);
    const mail = await world.server.db.selectFrom('outbox').selectAll().where('recipient', '=', world.outsider.email).executeTakeFirstOrThrow();
    expect(mail.subject).toContain(DEMO.workspaceName);
    expect(mail.body).toContain(`${world.baseUrl}/l/${DEMO.workspaceId}`);
  });
});

describe('withdraw, resend and delete', () => {
  it('offers an admin withdraw and delete on a pending invitation, and a plain member neither (403)', async () => {
    const mine = embedded((await world.owner.api.get(invitationsOf(DEMO.workspaceId))).body, 'invitations').find((i: { email: string }) => i.email === world.outsider.email);
    expect(hasLink(mine, REL.withdrawInvitation)).toBe(true);
    expect(hasLink(mine, REL.deleteInvitation)).toBe(true);
    expect(hasLink(mine, REL.addAdministrator)).toBe(false);
    const theirs = embedded((await world.member.api.get(invitationsOf(DEMO.workspaceId))).body, 'invitations').find((i: { email: string }) => i.email === world.outsider.email);
    expect(hasLink(theirs, REL.withdrawInvitation)).toBe(false);
    expect(hasLink(theirs, REL.deleteInvitation)).toBe(false);
    expectError(await world.member.api.call('PUT', linkOf(mine, REL.withdrawInvitation)), 403);
    expectError(await world.member.api.call('DELETE', linkOf(mine, REL.deleteInvitation)), 403);
    expectError(await world.anonymous.call('PUT', linkOf(mine, REL.withdrawInvitation)), 401);
    expectError(await world.owner.api.call('PUT', `/api/invitations/${crypto.randomUUID()}/withdrawal`), 404);
  });

  it('withdraws (REVOKED, no second withdraw), resends by inviting again, and deletes', async () => {
    const created = await world.owner.api.call('POST', invitationsOf(DEMO.workspaceId), { email: 'resend@example.com' });
    const revoked = await world.owner.api.call('PUT', linkOf(created.body, REL.withdrawInvitation));
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('REVOKED');
    expect(hasLink(revoked.body, REL.withdrawInvitation)).toBe(false);
    expectError(await world.owner.api.call('PUT', linkOf(created.body, REL.withdrawInvitation)), 403);

    const resent = await world.owner.api.call('POST', invitationsOf(DEMO.workspaceId), { email: 'resend@example.com' });
    expect(resent.status).toBe(201);
    expect(resent.body).toMatchObject({ id: created.body.id, status: 'PENDING' });
    const mails = await world.server.db.selectFrom('outbox').select('id').where('recipient', '=', 'resend@example.com').execute();
    expect(mails.length).toBe(2);

    expect((await world.owner.api.call('DELETE', linkOf(resent.body, REL.deleteInvitation))).status).toBe(204);
    expectError(await world.owner.api.get(`/api/invitations/${created.body.id}`), 404);
  });

  it("refuses a member of another workspace every invitation of this one (403)", async () => {
    const sandbox = await world.owner.api.call('POST', invitationsOf(DEMO.sandboxWorkspaceId), { email: 'sandbox-guest@example.com' });
    expect(sandbox.status).toBe(201);
    const id = sandbox.body.id as string;
    expectError(await world.member.api.get(`/api/invitations/${id}`), 404);
    expectError(await world.member.api.call('PUT', `/api/invitations/${id}/withdrawal`), 404);
    expectError(await world.member.api.call('DELETE', `/api/invitations/${id}`), 404);
    expectError(await world.member.api.call('PUT', `/api/invitations/${id}/administrator`), 404);
    expectError(await world.member.api.call('POST', invitationsOf(DEMO.sandboxWorkspaceId), { email: 'x@example.com' }), 404);
  });
});

describe('an accepted invitation', () => {
  it('cannot be deleted; the admin toggle makes the invitee an administrator and a member again; withdrawing removes them', async () => {
    const pending = await world.outsider.api.get(`/api/invitations?email=${encodeURIComponent(world.outsider.email)}`);
    const invitation = pending.body._embedded.invitations[0];
    expect((await world.outsider.api.call('PATCH', linkOf(invitation, REL.acceptInvitation))).status).toBe(200);

    const seen = await world.owner.api.get(`/api/invitations/${invitation.id}`);
    expect(seen.body.status).toBe('ACCEPTED');
    expect(hasLink(seen.body, REL.deleteInvitation)).toBe(false);
    expect(hasLink(seen.body, REL.withdrawAdministrator)).toBe(false);
    expectError(await world.owner.api.call('DELETE', `/api/invitations/${invitation.id}`), 403);

    const admin = await world.owner.api.call('PUT', linkOf(seen.body, REL.addAdministrator));
    expect(admin.status).toBe(200);
    expect(hasLink(admin.body, REL.withdrawAdministrator)).toBe(true);
    expect(hasLink(admin.body, REL.addAdministrator)).toBe(false);
    expect(hasLink((await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body, REL.updateDeleteWorkspace)).toBe(true);
    expectError(await world.member.api.call('DELETE', linkOf(admin.body, REL.withdrawAdministrator)), 403);

    const plain = await world.owner.api.call('DELETE', linkOf(admin.body, REL.withdrawAdministrator));
    expect(hasLink(plain.body, REL.addAdministrator)).toBe(true);
    expect(hasLink((await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}`)).body, REL.updateDeleteWorkspace)).toBe(false);

    const withdrawn = await world.owner.api.call('PUT', linkOf(plain.body, REL.withdrawInvitation));
    expect(withdrawn.body.status).toBe('REVOKED');
    expectError(await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}`), 404);
  });
});

describe("PUT /api/invitations/{id}/revoked: the reference's withdraw", () => {
  it("is where 'withdraw invitation' leads: an admin revokes (200, REVOKED) and is offered no second withdraw (403); the older …/withdrawal answers the same", async () => {
    const created = await world.owner.api.call('POST', invitationsOf(DEMO.workspaceId), { email: 'revoked@example.com' });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    expect(linkOf(created.body, REL.withdrawInvitation)).toBe(`${world.baseUrl}/api/invitations/${id}/revoked`);
    const revoked = await world.owner.api.call('PUT', `/api/invitations/${id}/revoked`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id, email: 'revoked@example.com', status: 'REVOKED' });
    expect(hasLink(revoked.body, REL.withdrawInvitation)).toBe(false);
    expectError(await world.owner.api.call('PUT', `/api/invitations/${id}/revoked`), 403);
    expectError(await world.owner.api.call('PUT', `/api/invitations/${id}/withdrawal`), 403);

    const again = await world.owner.api.call('POST', invitationsOf(DEMO.workspaceId), { email: 'revoked@example.com' });
    expect(again.body).toMatchObject({ id, status: 'PENDING' });
    const old = await world.owner.api.call('PUT', `/api/invitations/${id}/withdrawal`);
    expect(old.body.status).toBe('REVOKED');
  });

  it('answers an id that names no invitation, or no id at all, with 404; a body is ignored', async () => {
    for (const id of [crypto.randomUUID(), 'not-an-id', '%00', 'x'.repeat(400)]) expectError(await world.owner.api.call('PUT', `/api/invitations/${id}/revoked`), 404);
    const created = await world.owner.api.call('POST', invitationsOf(DEMO.workspaceId), { email: 'revoked-body@example.com' });
    const revoked = await world.owner.api.call('PUT', `/api/invitations/${String(created.body.id)}/revoked`, { status: 'PENDING', email: 'other@example.com' });
    expect(revoked.body).toMatchObject({ status: 'REVOKED', email: 'revoked-body@example.com' });
  });

  it("refuses a plain member (403) and a member of another workspace (404, as for no such id), changing nothing", async () => {
    const created = await world.owner.api.call('POST', invitationsOf(DEMO.workspaceId), { email: 'revoked-others@example.com' });
    const id = String(created.body.id);
    expectError(await world.member.api.call('PUT', `/api/invitations/${id}/revoked`), 403);
    const sandbox = await world.owner.api.call('POST', invitationsOf(DEMO.sandboxWorkspaceId), { email: 'revoked-sandbox@example.com' });
    expectError(await world.member.api.call('PUT', `/api/invitations/${String(sandbox.body.id)}/revoked`), 404);
    expect((await world.owner.api.get(`/api/invitations/${id}`)).body.status).toBe('PENDING');
    expect((await world.owner.api.get(`/api/invitations/${String(sandbox.body.id)}`)).body.status).toBe('PENDING');
  });
});
