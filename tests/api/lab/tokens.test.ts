import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASK } from '../../../src/domain/pipelineRules';
import { REL } from '../../../src/domain/relations';
import { dataComponentSchema, oauthTokenSchema } from '../../../src/domain/resources';
import { oauthEnv, startFakeOAuthProvider, type FakeOAuthProvider } from '../../support/oauthProvider';
import { expectError, hasLink, linkOf } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { demoPipeline, outsiderWorkspace, type Body } from './labWorld';

// OAuth connect's server half (spec 001 §7): POST /tokens/{provider}/token against a provider the
// test starts locally, the credentials kept on the component, the refresh exchange with rotation,
// Disconnect, and everyone who must be refused.

let world: World;
let provider: FakeOAuthProvider;
let component: Body;
let pipelineHref: string;
const REDIRECT = 'http://localhost:5173/oauth';

beforeAll(async () => {
  provider = await startFakeOAuthProvider();
  world = await startWorld({ env: oauthEnv(provider) });
  await Promise.all([login(world.owner), login(world.member)]);
  await outsiderWorkspace(world);
  const pipeline = await demoPipeline(world.owner.api, 'OAuth source');
  component = pipeline._embedded.dataComponents[0] as Body;
  pipelineHref = linkOf(pipeline, REL.self);
}, 120_000);
afterAll(async () => {
  await world?.close();
  await provider?.close();
});

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(72).toString('base64url').slice(0, 96);
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const tokenUrl = (target: Body, name = 'oauth2-google') => linkOf(target, REL.authorizeDatacomponent).replace('{provider}', name);

async function connect(target: Body = component) {
  const { verifier, challenge } = pkce();
  const code = provider.issueCode(challenge, REDIRECT);
  return world.owner.api.call('POST', tokenUrl(target), { grant_type: 'authorization_code', component: target.id, code, code_verifier: verifier, redirect_uri: REDIRECT, scope: 'files.read' });
}

const readComponent = async () => (await world.owner.api.get(linkOf(component, REL.self))).body as Body;

describe('the code exchange', () => {
  it('exchanges the code with the secret only the server holds, and keeps the tokens on the component', async () => {
    expect(hasLink(component, REL.authorizeDatacomponent)).toBe(true);
    const answer = await connect();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(oauthTokenSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body.access_token).toEqual(expect.any(String));
    expect(answer.body.refresh_token).toBeUndefined();
    expect(answer.body.credentials).toMatchObject({ connected: true, provider: 'oauth2-google', refreshable: true });
    expect(Math.abs(Date.parse(answer.body.credentials.expiresAt) - (Date.now() + 3600_000))).toBeLessThan(60_000);
    const sent = provider.tokenRequests.at(-1)!;
    expect(sent).toMatchObject({ grant_type: 'authorization_code', client_id: provider.clientId, client_secret: provider.clientSecret, redirect_uri: REDIRECT, scope: 'files.read' });
    expect(sent.code_verifier).toHaveLength(96);
    expect(JSON.stringify(answer.body)).not.toContain(provider.clientSecret);

    const stored = await readComponent();
    expect(dataComponentSchema.safeParse(stored).success).toBe(true);
    expect(stored.credentials).toMatchObject({ connected: true, refreshable: true });
    // sensitive: never returned in clear
    expect(stored.properties['oauth_credentials.access_token']).toBe(MASK);
    expect(stored.properties['oauth_credentials.refresh_token']).toBe(MASK);
    expect(JSON.stringify(stored)).not.toContain(answer.body.access_token);
    // nor through the pipeline that uses the component, or its environment
    const pipeline = (await world.owner.api.get(pipelineHref)).body as Body;
    expect(JSON.stringify(pipeline)).not.toContain(answer.body.access_token);
    const environment = await world.owner.api.get(linkOf(pipeline, REL.environment));
    expect(environment.status).toBe(200);
    expect(JSON.stringify(environment.body)).not.toContain(answer.body.access_token);
  });

  it('refuses a code the provider refuses (a wrong verifier) with a field error, and a failing provider with 502', async () => {
    const code = provider.issueCode(pkce().challenge, REDIRECT);
    const refused = await world.owner.api.call('POST', tokenUrl(component), { grant_type: 'authorization_code', component: component.id, code, code_verifier: pkce().verifier, redirect_uri: REDIRECT });
    expectError(refused, 400, { code: /PKCE verification failed/ });
    provider.failNext(503);
    const failing = await connect();
    expectError(failing, 502);
  });

  it('answers 400 with field errors for a malformed exchange', async () => {
    const url = tokenUrl(component);
    expectError(await world.owner.api.call('POST', url, { grant_type: 'authorization_code', component: component.id }), 400, { code: 'is required', code_verifier: 'is required' });
    expectError(await world.owner.api.call('POST', url, { grant_type: 'password', component: component.id }), 400, { grant_type: /authorization_code/ });
    expectError(await world.owner.api.call('POST', url, { grant_type: 'authorization_code', code: 'x', code_verifier: 'short' }), 400, { component: 'is required', code_verifier: /43 to 128/ });
    expectError(await world.owner.api.call('POST', url, { grant_type: 'refresh_token', component: 'not-an-id' }), 400, { component: /data component id/ });
    expectError(await world.owner.api.call('POST', url, { grant_type: 'authorization_code', component: component.id, code: 'x', code_verifier: 'a'.repeat(43), redirect_uri: 'javascript alert' }), 400, { redirect_uri: /URL/ });
  });

  it('answers 404 for a provider it does not know, or has no client for', async () => {
    const body = { grant_type: 'refresh_token', component: component.id };
    expectError(await world.owner.api.call('POST', tokenUrl(component, 'oauth2-myspace'), body), 404);
    expectError(await world.owner.api.call('POST', tokenUrl(component, 'oauth2-linkedin'), body), 404);
  });
});

describe('the refresh exchange', () => {
  it('renews the access token from the stored refresh token and writes the rotated one back', async () => {
    await connect();
    const before = await readComponent();
    for (let round = 0; round < 2; round++) {
      // the provider rotates: the second round works only if the first round's refresh token was kept
      const answer = await world.owner.api.call('POST', tokenUrl(component), { grant_type: 'refresh_token', component: component.id });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(provider.tokenRequests.at(-1)).toMatchObject({ grant_type: 'refresh_token', client_secret: provider.clientSecret });
      expect(answer.body.credentials.connected).toBe(true);
    }
    const after = await readComponent();
    expect(Date.parse(after.credentials.refreshedAt)).toBeGreaterThan(Date.parse(before.credentials.refreshedAt));
  });

  it('keeps the credentials when the component\'s other properties are saved', async () => {
    await connect();
    const saved = await world.owner.api.call('PUT', linkOf(component, REL.updateDatacomponent), { properties: { seed: 7, 'oauth_credentials.access_token': 'forged' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.properties.seed).toBe(7);
    expect(saved.body.credentials.connected).toBe(true);
    const refreshed = await world.owner.api.call('POST', tokenUrl(component), { grant_type: 'refresh_token', component: component.id });
    expect(refreshed.status).toBe(200);
  });
});

describe('Disconnect', () => {
  it('removes that component\'s credentials and nothing else; a refresh then has nothing to use', async () => {
    await connect();
    const answer = await world.owner.api.call('DELETE', linkOf(component, REL.disconnectDatacomponent));
    expect(answer.status).toBe(204);
    const after = await readComponent();
    expect(after.credentials).toMatchObject({ connected: false, refreshable: false });
    expect(Object.keys(after.properties).filter((k) => k.startsWith('oauth_credentials.'))).toEqual([]);
    expect(after.properties.seed).toBe(7);
    expectError(await world.owner.api.call('POST', tokenUrl(component), { grant_type: 'refresh_token', component: component.id }), 400, { refresh_token: /connect it again/ });
  });
});

describe('who may connect', () => {
  it('refuses a plain member (no links on the component) and another workspace\'s admin', async () => {
    const asMember = await world.member.api.get(linkOf(component, REL.self));
    expect(hasLink(asMember.body, REL.authorizeDatacomponent)).toBe(false);
    const body = { grant_type: 'refresh_token', component: component.id };
    expectError(await world.member.api.call('POST', tokenUrl(component), body), 403);
    expectError(await world.outsider.api.call('POST', tokenUrl(component), body), 404);
    expectError(await world.outsider.api.call('DELETE', linkOf(component, REL.disconnectDatacomponent)), 404);
    expectError(await world.member.api.call('DELETE', linkOf(component, REL.disconnectDatacomponent)), 403);
    expectError(await world.owner.api.call('POST', tokenUrl(component), { ...body, component: '00000000-0000-4000-8000-000000000000' }), 404);
    expectError(await world.anonymous.call('POST', tokenUrl(component), body), 401);
  });
});
