import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { invitationsCollectionSchema } from '../../src/domain/resources';
import { PROFILE_MESSAGES } from '../../src/domain/validation';
import { DEMO } from '../../server/seed';
import { embedded, expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member), login(world.outsider), login(world.unverified)]);
});
afterAll(async () => {
  await world?.close();
});

const invitationsOf = `/api/workspaces/${DEMO.workspaceId}/invitations`;

describe('POST /api/workspaces/{id}/invitations', () => {
  it('lets an admin invite an address (201) through the create invitation link', async () => {
    const workspace = await world.owner.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    const answer = await world.owner.api.call('POST', linkOf(workspace.body, REL.createInvitation), { email: world.outsider.email });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ email: world.outsider.email, status: 'PENDING', workspace: { id: DEMO.workspaceId, name: DEMO.workspaceName } });
  });

  it('refuses a plain member, whose workspace has no create invitation link (403)', async () => {
    const workspace = await world.member.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    expect(hasLink(workspace.body, REL.createInvitation)).toBe(false);
    expectError(await world.member.api.call('POST', invitationsOf, { email: 'friend@example.com' }), 403);
  });

  it('answers 404 outside the workspace (as for none), 404 for none, 401 without a token', async () => {
    expectError(await world.outsider.api.call('POST', invitationsOf, { email: 'friend@example.com' }), 404);
    expectError(await world.owner.api.call('POST', `/api/workspaces/${crypto.randomUUID()}/invitations`, { email: 'friend@example.com' }), 404);
    expectError(await world.anonymous.call('POST', invitationsOf, { email: 'friend@example.com' }), 401);
  });

  it('rejects an invalid address, a duplicate, a member, and an address outside the domains', async () => {
    expectError(await world.owner.api.call('POST', invitationsOf, { email: 'not an email' }), 400, { email: PROFILE_MESSAGES.emailInvalid });
    expectError(await world.owner.api.call('POST', invitationsOf, {}), 400, { email: PROFILE_MESSAGES.emailInvalid });
    expectError(await world.owner.api.call('POST', invitationsOf, '{"email"'), 400);
    expectError(await world.owner.api.call('POST', invitationsOf, { email: world.outsider.email.toUpperCase() }), 409, { email: /already/ });
    expectError(await world.owner.api.call('POST', invitationsOf, { email: DEMO.member.email }), 409, { email: /member/ });

    await world.server.db.updateTable('workspaces').set({ domains: JSON.stringify(['example.com']) }).where('id', '=', DEMO.sandboxWorkspaceId).execute();
    const sandbox = `/api/workspaces/${DEMO.sandboxWorkspaceId}/invitations`;
    expectError(await world.owner.api.call('POST', sandbox, { email: 'someone@elsewhere.org' }), 400, { email: /example\.com/ });
    expect((await world.owner.api.call('POST', sandbox, { email: 'someone@example.com' })).status).toBe(201);
  });
});

describe('GET /api/invitations?email=', () => {
  it("lists the invitations waiting for the caller's verified address, each with accept invitation", async () => {
    const root = await world.outsider.api.get('/api/');
    const answer = await world.outsider.api.get(linkOf(root.body, REL.invitations));
    expect(answer.status).toBe(200);
    expect(invitationsCollectionSchema.safeParse(answer.body).success).toBe(true);
    const [invitation] = answer.body._embedded.invitations;
    expect(invitation).toMatchObject({ email: world.outsider.email, status: 'PENDING', workspace: { id: DEMO.workspaceId } });
    expect(linkOf(invitation, REL.acceptInvitation)).toBe(`${world.baseUrl}/api/invitations/${invitation.id}`);
  });

  it("refuses somebody else's address and an unverified one (403); needs the email (400); 401 without a token", async () => {
    expectError(await world.member.api.get(`/api/invitations?email=${encodeURIComponent(world.outsider.email)}`), 403);
    expectError(await world.unverified.api.get(`/api/invitations?email=${encodeURIComponent(DEMO.unverified.email)}`), 403);
    expectError(await world.outsider.api.get('/api/invitations?email='), 400, { email: /required/ });
    expectError(await world.anonymous.get(`/api/invitations?email=${encodeURIComponent(world.outsider.email)}`), 401);
  });
});

describe('PATCH /api/invitations/{id} (accept invitation)', () => {
  it('is refused to anyone but the invitee (403), with no accept link rendered to them', async () => {
    const mine = await world.outsider.api.get(`/api/invitations?email=${encodeURIComponent(world.outsider.email)}`);
    const href = linkOf(mine.body._embedded.invitations[0], REL.acceptInvitation);
    const asAdmin = await world.owner.api.get(href);
    expect(asAdmin.status).toBe(200);
    expect(hasLink(asAdmin.body, REL.acceptInvitation)).toBe(false);
    expectError(await world.owner.api.call('PATCH', href), 403);
    expectError(await world.member.api.call('PATCH', href), 403);
    expectError(await world.anonymous.call('PATCH', href), 401);
    expectError(await world.outsider.api.call('PATCH', `/api/invitations/${crypto.randomUUID()}`), 404);
  });

  it('joins the invitee to the workspace as a member; accepting again changes nothing', async () => {
    const mine = await world.outsider.api.get(`/api/invitations?email=${encodeURIComponent(world.outsider.email)}`);
    const href = linkOf(mine.body._embedded.invitations[0], REL.acceptInvitation);
    const accepted = await world.outsider.api.call('PATCH', href);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'ACCEPTED', workspace: { id: DEMO.workspaceId, name: DEMO.workspaceName } });
    // Accepting is idempotent, so the link stays: a retried request answers the same.
    expect(linkOf(accepted.body, REL.acceptInvitation)).toBe(href);

    const workspace = await world.outsider.api.get(`/api/workspaces/${DEMO.workspaceId}`);
    expect(workspace.status).toBe(200);
    expect(workspace.body.default).toBe(true);
    expect(hasLink(workspace.body, REL.updateDeleteWorkspace)).toBe(false);

    const again = await world.outsider.api.call('PATCH', href);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('ACCEPTED');
    const pending = await world.outsider.api.get(`/api/invitations?email=${encodeURIComponent(world.outsider.email)}`);
    expect(pending.body._embedded.invitations).toEqual([]);
  });
});

describe('GET /api/workspaces/{id}/invitations', () => {
  it("lists a workspace's invitations to its members", async () => {
    const answer = await world.member.api.get(invitationsOf);
    expect(answer.status).toBe(200);
    expect(embedded(answer.body, 'invitations').map((i: { email: string }) => i.email)).toContain(world.outsider.email);
  });

  it('answers 404 outside the workspace (as for none), 404 for none, 401 without a token', async () => {
    expectError(await world.member.api.get(`/api/workspaces/${DEMO.sandboxWorkspaceId}/invitations`), 404);
    expectError(await world.owner.api.get(`/api/workspaces/${crypto.randomUUID()}/invitations`), 404);
    expectError(await world.anonymous.get(invitationsOf), 401);
  });
});
