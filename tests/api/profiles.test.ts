import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { profileSchema } from '../../src/domain/resources';
import { PROFILE_MESSAGES } from '../../src/domain/validation';
import { DEMO } from '../../server/seed';
import { expectError, hasLink, linkOf } from './helpers/http';
import { createKeyFor } from './helpers/keys';
import { login, startWorld, type World } from './helpers/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const profilePath = (id: string) => `/api/profiles/${encodeURIComponent(id)}`;

describe('POST /api/profiles/{userId}/login', () => {
  it('creates the profile on first sign-in; a later sign-in changes nothing already set', async () => {
    const first = await world.outsider.api.call('POST', `${profilePath(world.outsider.subject)}/login`, {
      id: world.outsider.subject,
      name: 'Oscar Outsider',
      email: world.outsider.email,
    });
    expect(first.status).toBe(200);
    expect(profileSchema.safeParse(first.body).success).toBe(true);
    expect(first.body).toMatchObject({ id: world.outsider.subject, name: 'Oscar Outsider', email: world.outsider.email, defaultWorkspace: null, featuresDisabled: null });
    // SELF_SERVE_WORKSPACES defaults to true: a new sign-up may create workspaces.
    expect(hasLink(first.body, REL.newWorkspace)).toBe(true);

    const again = await world.outsider.api.call('POST', `${profilePath(world.outsider.subject)}/login`, {
      id: world.outsider.subject,
      name: 'Somebody Else',
      email: world.outsider.email,
    });
    expect(again.status).toBe(200);
    expect(again.body.name).toBe('Oscar Outsider');
  });

  it('returns the seeded profile of the member, without new workspace', async () => {
    const answer = await login(world.member);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id: world.member.subject, name: DEMO.member.name, defaultWorkspace: { id: DEMO.workspaceId } });
    expect(hasLink(body, REL.newWorkspace)).toBe(false);
  });

  it('refuses signing in as somebody else (403) and answers 401 without a token', async () => {
    expectError(await world.outsider.api.call('POST', `${profilePath(world.owner.subject)}/login`, { id: world.owner.subject, name: 'x', email: 'x@example.com' }), 403);
    expectError(await world.anonymous.call('POST', `${profilePath(world.owner.subject)}/login`, { id: world.owner.subject, name: 'x', email: 'x@example.com' }), 401);
  });

  it('rejects a bad body with field errors, and malformed JSON with 400', async () => {
    const bad = await world.outsider.api.call('POST', `${profilePath(world.outsider.subject)}/login`, { id: world.outsider.subject, name: ' ', email: 'nope' });
    expectError(bad, 400, { name: PROFILE_MESSAGES.nameRequired, email: PROFILE_MESSAGES.emailInvalid });
    const mismatch = await world.outsider.api.call('POST', `${profilePath(world.outsider.subject)}/login`, { id: 'auth0|other', name: 'Oscar', email: world.outsider.email });
    expectError(mismatch, 400, { id: /match/ });
    expectError(await world.outsider.api.call('POST', `${profilePath(world.outsider.subject)}/login`, '{"id": '), 400);
  });
});

describe('GET /api/profiles/{id}', () => {
  it('reads your own profile with its links', async () => {
    await login(world.owner);
    const answer = await world.owner.api.get(profilePath(world.owner.subject));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: world.owner.subject, name: DEMO.owner.name, email: DEMO.owner.email, defaultWorkspace: { id: DEMO.workspaceId } });
    expect(linkOf(answer.body, REL.self)).toBe(`${world.baseUrl}${profilePath(world.owner.subject)}`);
    expect(hasLink(answer.body, 'update profile')).toBe(true);
    expect(linkOf(answer.body, REL.workspaces)).toBe(`${world.baseUrl}/api/workspaces`);
    expect(hasLink(answer.body, REL.newWorkspace)).toBe(true);
  });

  it("refuses another profile (403), and answers 401 without a token", async () => {
    expectError(await world.member.api.get(profilePath(world.owner.subject)), 403);
    expectError(await world.member.api.get(profilePath('auth0|does-not-exist')), 403);
    expectError(await world.anonymous.get(profilePath(world.owner.subject)), 401);
  });
});

describe('PUT /api/profiles/{id}', () => {
  it('saves the name, and a new email only as pending until its mailed link is confirmed (tests/api/identity-email-change.test.ts)', async () => {
    const answer = await world.outsider.api.call('PUT', profilePath(world.outsider.subject), {
      id: world.outsider.subject,
      name: 'Oscar O.',
      email: 'oscar@example.org',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'Oscar O.', email: world.outsider.email, pendingEmail: 'oscar@example.org' });
    const read = await world.outsider.api.get(profilePath(world.outsider.subject));
    expect(read.body.name).toBe('Oscar O.');
    expect(read.body.email).toBe(world.outsider.email);
  });

  it("answers the spec's field messages for an empty name and an invalid email", async () => {
    const answer = await world.outsider.api.call('PUT', profilePath(world.outsider.subject), { id: world.outsider.subject, name: '', email: 'no-at-sign' });
    expectError(answer, 400, { name: PROFILE_MESSAGES.nameRequired, email: PROFILE_MESSAGES.emailInvalid });
    expectError(await world.outsider.api.call('PUT', profilePath(world.outsider.subject), '{name'), 400);
  });

  it('keeps the email of accounts from other providers (id not starting with auth0)', async () => {
    const subject = 'google-oauth2|1234567890';
    await world.server.db.insertInto('profiles').values({ id: subject, name: 'Gina Google', email: 'gina@example.com', can_create_workspaces: false }).execute();
    // Such a profile is reached only through its own token, which the embedded provider cannot mint,
    // so the rule is checked through an API key of that profile.
    const api = await createKeyFor(world, subject);
    const changed = await api.call('PUT', profilePath(subject), { id: subject, name: 'Gina G.', email: 'other@example.com' });
    expectError(changed, 400, { email: /changed/ });
    const renamed = await api.call('PUT', profilePath(subject), { id: subject, name: 'Gina G.', email: 'gina@example.com' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Gina G.');
  });

  it("refuses another profile (403) and answers 401 without a token", async () => {
    expectError(await world.member.api.call('PUT', profilePath(world.owner.subject), { id: world.owner.subject, name: 'Hijack', email: 'h@example.com' }), 403);
    expectError(await world.anonymous.call('PUT', profilePath(world.owner.subject), { id: world.owner.subject, name: 'Hijack', email: 'h@example.com' }), 401);
    const owner = await world.owner.api.get(profilePath(world.owner.subject));
    expect(owner.body.name).toBe(DEMO.owner.name);
  });
});

describe('PATCH /api/profiles/{id}', () => {
  it('switches the default workspace to one the caller belongs to', async () => {
    const answer = await world.owner.api.call('PATCH', profilePath(world.owner.subject), { defaultWorkspace: { id: DEMO.sandboxWorkspaceId } });
    expect(answer.status).toBe(200);
    expect(answer.body.defaultWorkspace).toEqual({ id: DEMO.sandboxWorkspaceId });
    const list = await world.owner.api.get('/api/workspaces?size=99');
    const flags = Object.fromEntries((list.body._embedded.workspaces as { id: string; default: boolean }[]).map((w) => [w.id, w.default]));
    expect(flags).toEqual({ [DEMO.workspaceId]: false, [DEMO.sandboxWorkspaceId]: true });
    await world.owner.api.call('PATCH', profilePath(world.owner.subject), { defaultWorkspace: { id: DEMO.workspaceId } });
  });

  it('refuses a workspace the caller is not in (403) and another profile (403)', async () => {
    expectError(await world.member.api.call('PATCH', profilePath(world.member.subject), { defaultWorkspace: { id: DEMO.sandboxWorkspaceId } }), 404);
    expectError(await world.member.api.call('PATCH', profilePath(world.owner.subject), { defaultWorkspace: { id: DEMO.workspaceId } }), 403);
    const member = await world.member.api.get(profilePath(world.member.subject));
    expect(member.body.defaultWorkspace).toEqual({ id: DEMO.workspaceId });
  });

  it('rejects a bad body with field errors, and answers 401 without a token', async () => {
    expectError(await world.member.api.call('PATCH', profilePath(world.member.subject), { defaultWorkspace: { id: 'not-a-uuid' } }), 400, { 'defaultWorkspace.id': /workspace id/ });
    expectError(await world.member.api.call('PATCH', profilePath(world.member.subject), {}), 400, { defaultWorkspace: /.+/ });
    expectError(await world.member.api.call('PATCH', profilePath(world.member.subject), '{"defaultWorkspace":'), 400);
    expectError(await world.anonymous.call('PATCH', profilePath(world.member.subject), { defaultWorkspace: { id: DEMO.workspaceId } }), 401);
  });
});
