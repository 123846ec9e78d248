import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import { expectError, hasLink, linkOf } from './helpers/http';
import { login, startWorld, type World } from './helpers/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

describe('GET /api/', () => {
  it('answers 401 with the error body without a token, and with a token that is not one', async () => {
    expectError(await world.anonymous.get('/api/'), 401);
    const forged = await fetch(`${world.baseUrl}/api/`, { headers: { authorization: 'Bearer not.a.token' } });
    expect(forged.status).toBe(401);
  });

  it('links a verified user with a profile to everything, including new apikey, with absolute hrefs', async () => {
    expect((await login(world.owner)).status).toBe(200);
    const root = await world.owner.api.get('/api/');
    expect(root.status).toBe(200);
    expect(linkOf(root.body, REL.self)).toBe(`${world.baseUrl}/api/`);
    expect(linkOf(root.body, REL.profile)).toBe(`${world.baseUrl}/api/profiles/${encodeURIComponent(world.owner.subject)}`);
    expect(linkOf(root.body, REL.workspaces)).toBe(`${world.baseUrl}/api/workspaces`);
    expect(linkOf(root.body, REL.apikeys)).toBe(`${world.baseUrl}/api/apikeys`);
    expect(linkOf(root.body, REL.notifications)).toBe(`${world.baseUrl}/api/notifications`);
    expect(linkOf(root.body, REL.invitations)).toBe(`${world.baseUrl}/api/invitations?email=${encodeURIComponent(world.owner.email)}`);
    expect(linkOf(root.body, REL.newApiKey)).toBe(`${world.baseUrl}/api/apikeys`);
  });

  it('has no profile link before the first login', async () => {
    const root = await world.outsider.api.get('/api/');
    expect(root.status).toBe(200);
    expect(hasLink(root.body, REL.profile)).toBe(false);
    expect(hasLink(root.body, REL.newApiKey)).toBe(false);
  });

  it('offers no new apikey and no invitations to an unverified user', async () => {
    expect((await login(world.unverified)).status).toBe(200);
    const root = await world.unverified.api.get('/api/');
    expect(root.status).toBe(200);
    expect(hasLink(root.body, REL.profile)).toBe(true);
    expect(hasLink(root.body, REL.newApiKey)).toBe(false);
    expect(hasLink(root.body, REL.invitations)).toBe(false);
  });
});

describe('unknown paths under /api', () => {
  it('answer 404 with the error body; a known path with another method is 405 (RFC 9110)', async () => {
    expectError(await world.owner.api.get('/api/no-such-resource'), 404);
    expectError(await world.owner.api.call('DELETE', '/api/workspaces'), 405);
  });
});
