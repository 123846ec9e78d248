import { describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import type { MemberRole } from '../db/schema';
import type { Principal } from '../http/auth';
import type { ProfileRow } from '../repositories/profiles';
import { mayRun, requireCurrentToken, resolveCallerWith, verifiedEmail, type Caller } from './caller';
import { requireOffered } from './guard';
import { hrefs } from './hrefs';
import {
  alertDraftLinks, alertLinks, apiKeyDraftLinks, apiKeyLinks, awaitsVerificationToCreate, canChangeChannel, canDeleteChannel, canRemoveMember, channelDraftLinks, channelLinks, datasetLinks, pipelineLinks,
  datasetMessageLinks, datasetViewer, invitationLinks, memberLinks, notificationLinks, notificationSettingsLinks, profileLinks, rootLinks,
  subscriptionLinks, tagLinks, workspaceDraftLinks,
} from './links';

// What a person (or an API key) is offered on what is theirs and on what is not, written out by
// hand (issue 40, items 2 and 4). The expected lists are this file's own, not the policy's.

const h = hrefs({ publicUrl: 'https://d.example' });
const A = 'https://d.example/api';
const rels = (links: object) => Object.keys(links).sort();
const sorted = (list: string[]) => [...list].sort();

function principal(over: Partial<Principal> = {}): Principal {
  return { subject: 'auth0|ann', email: 'Ann@X.org ', emailVerified: true, name: 'Ann', clientId: undefined, kind: 'user', issuedAt: 1_700_000_000, ...over };
}
const profile = (over: Partial<ProfileRow> = {}) => ({ id: 'auth0|ann', can_create_workspaces: false, credentials_changed_at: null, ...over }) as ProfileRow;
function person(over: { verified?: boolean; owner?: boolean; profile?: boolean } = {}): Caller {
  const { verified = true, owner = false, profile: hasProfile = true } = over;
  return { kind: 'user', principal: principal({ emailVerified: verified }), profileId: 'auth0|ann', profile: hasProfile ? profile({ can_create_workspaces: owner }) : undefined, apiKeyId: undefined, prefetched: undefined };
}
const apiKey = (): Caller => ({ kind: 'client', principal: principal({ kind: 'client', clientId: 'k1', email: undefined }), profileId: 'auth0|ann', profile: profile(), apiKeyId: 'k1', prefetched: undefined });

describe('the root', () => {
  const ANYONE = [REL.self, REL.workspaces, REL.apikeys, REL.notifications, REL.discovery, REL.dataplugins];
  const WITH_PROFILE = [REL.profile, REL.subscriptions, REL.notificationSettings, REL.updateNotificationSettings, REL.sentInvitations, REL.profiles, REL.newChannel, REL.newDataplugin];

  it('a verified person with a profile', () => {
    expect(rels(rootLinks(h, person()))).toEqual(sorted([...ANYONE, ...WITH_PROFILE, REL.invitations, REL.newApiKey, REL.login]));
  });
  it('a verified owner also creates workspaces; unverified, they wait for verification', () => {
    expect(rels(rootLinks(h, person({ owner: true })))).toEqual(sorted([...ANYONE, ...WITH_PROFILE, REL.invitations, REL.newApiKey, REL.login, REL.newWorkspace]));
    expect(rels(rootLinks(h, person({ owner: true, verified: false })))).toEqual(sorted([...ANYONE, ...WITH_PROFILE, REL.login]));
    expect(awaitsVerificationToCreate(person({ owner: true, verified: false }))).toBe(true);
    expect(awaitsVerificationToCreate(person({ owner: true }))).toBe(false);
    expect(awaitsVerificationToCreate(person({ verified: false }))).toBe(false);
    // a first sign-in, unverified, has no profile yet to carry the owner's mark
    expect(awaitsVerificationToCreate(person({ verified: false, profile: false }))).toBe(false);
    expect(awaitsVerificationToCreate({ ...apiKey(), profile: profile({ can_create_workspaces: true }), principal: principal({ kind: 'client', emailVerified: false }) })).toBe(false);
  });
  it('a first sign-in (no profile yet) logs in and reads the catalogue', () => {
    expect(rels(rootLinks(h, person({ profile: false })))).toEqual(sorted([...ANYONE, REL.invitations, REL.login]));
  });
  it('an API key claims no invitation, mints no key and signs in as nobody', () => {
    expect(rels(rootLinks(h, apiKey()))).toEqual(sorted([...ANYONE, ...WITH_PROFILE]));
  });
  it('hrefs: the verified address is the invitations filter; login is the subject’s', () => {
    const links = rootLinks(h, person({ owner: true }));
    expect(links[REL.invitations]).toEqual({ href: `${A}/invitations?email=ann%40x.org` });
    expect(links[REL.sentInvitations]).toEqual({ href: `${A}/invitations` });
    expect(links[REL.login]).toEqual({ href: `${A}/profiles/auth0%7Cann/login` });
    expect(links[REL.profile]).toEqual({ href: `${A}/profiles/auth0%7Cann` });
    expect(links[REL.newWorkspace]).toEqual({ href: `${A}/workspaces` });
    expect(links[REL.newApiKey]).toEqual({ href: `${A}/apikeys` });
    expect((links[REL.newChannel] as { href: string }).href).toMatch(/^https:\/\/d\.example\/api\/channels\/[0-9a-f-]{36}$/);
  });
});

describe('what is one person’s own', () => {
  it('a profile is seen by itself only; new workspace for a verified owner', () => {
    expect(profileLinks(h, person(), { id: 'auth0|bob', can_create_workspaces: true })).toEqual({});
    expect(rels(profileLinks(h, person(), { id: 'auth0|ann', can_create_workspaces: false }))).toEqual(sorted([REL.self, REL.updateProfile, REL.workspaces]));
    expect(rels(profileLinks(h, person(), { id: 'auth0|ann', can_create_workspaces: true }))).toEqual(sorted([REL.self, REL.updateProfile, REL.workspaces, REL.newWorkspace]));
    expect(rels(profileLinks(h, person({ verified: false }), { id: 'auth0|ann', can_create_workspaces: true }))).toEqual(sorted([REL.self, REL.updateProfile, REL.workspaces]));
  });
  it('a workspace draft is created by a verified owner only', () => {
    expect(workspaceDraftLinks(h, person({ owner: true }), 'w1')).toEqual({ [REL.createWorkspace]: { href: `${A}/workspaces/w1` } });
    expect(workspaceDraftLinks(h, person({ owner: true, verified: false }), 'w1')).toEqual({});
    expect(workspaceDraftLinks(h, person(), 'w1')).toEqual({});
    expect(workspaceDraftLinks(h, { ...apiKey(), profile: profile({ can_create_workspaces: true }) }, 'w1')).toEqual({});
  });
  it('API keys: the owner’s alone; minted by a verified person with a profile, never by a key', () => {
    const key = { id: 'k1', profile_id: 'auth0|ann' };
    expect(rels(apiKeyLinks(h, person(), key))).toEqual(sorted([REL.self, REL.updateApiKey, REL.deleteApiKey]));
    expect(apiKeyLinks(h, person(), { ...key, profile_id: 'auth0|bob' })).toEqual({});
    expect(apiKeyDraftLinks(h, person(), 'k2')).toEqual({ [REL.createApiKey]: { href: `${A}/apikeys/k2` } });
    expect(apiKeyDraftLinks(h, person({ verified: false }), 'k2')).toEqual({});
    expect(apiKeyDraftLinks(h, person({ profile: false }), 'k2')).toEqual({});
    expect(apiKeyDraftLinks(h, apiKey(), 'k2')).toEqual({});
  });
  it('notifications and their settings: the recipient’s alone; resolved once', () => {
    const n = { id: 'n1', profile_id: 'auth0|ann', resolved: false };
    expect(notificationLinks(h, person(), n)).toEqual({
      [REL.self]: { href: `${A}/notifications/n1` }, [REL.resolveNotification]: { href: `${A}/notifications/n1/resolved` }, [REL.deleteNotification]: { href: `${A}/notifications/n1` },
    });
    expect(rels(notificationLinks(h, person(), { ...n, resolved: true }))).toEqual(sorted([REL.self, REL.deleteNotification]));
    expect(notificationLinks(h, person(), { ...n, profile_id: 'auth0|bob' })).toEqual({});
    expect(rels(notificationSettingsLinks(h, person()))).toEqual(sorted([REL.self, REL.updateNotificationSettings]));
    expect(notificationSettingsLinks(h, person({ profile: false }))).toEqual({});
  });
  it('subscriptions and dataset messages: their owner’s and sender’s alone', () => {
    expect(rels(subscriptionLinks(h, person(), { id: 's1', profile_id: 'auth0|ann' }))).toEqual(sorted([REL.self, REL.updateSubscription, REL.deleteSubscription]));
    expect(subscriptionLinks(h, person(), { id: 's1', profile_id: 'auth0|bob' })).toEqual({});
    expect(datasetMessageLinks(h, person(), { id: 'm 1', dataset_id: 'd1', sender_id: 'auth0|ann' })).toEqual({ [REL.createMessage]: { href: `${A}/datasets/d1/messages/m%201` } });
    expect(datasetMessageLinks(h, person(), { id: 'm1', dataset_id: 'd1', sender_id: 'auth0|bob' })).toEqual({});
  });
});

describe('invitations', () => {
  const inv = { id: 'i1', email: ' ann@x.ORG', status: 'PENDING', invitee_role: null as MemberRole | null };
  it('the invitee (by verified address) reads and accepts it while pending or accepted', () => {
    expect(rels(invitationLinks(h, person(), inv, undefined))).toEqual(sorted([REL.self, REL.acceptInvitation]));
    expect(rels(invitationLinks(h, person(), { ...inv, status: 'ACCEPTED' }, undefined))).toEqual(sorted([REL.self, REL.acceptInvitation]));
    expect(rels(invitationLinks(h, person(), { ...inv, status: 'REVOKED' }, undefined))).toEqual([REL.self]);
    expect(rels(invitationLinks(h, person({ profile: false }), inv, undefined))).toEqual([REL.self]);
    expect(invitationLinks(h, person({ verified: false }), inv, undefined)).toEqual({});
    expect(invitationLinks(h, apiKey(), inv, undefined)).toEqual({});
    expect(invitationLinks(h, person(), { ...inv, email: 'bob@x.org' }, undefined)).toEqual({});
  });
  it('a member reads it; an admin withdraws, deletes and toggles the accepted invitee’s administration', () => {
    const other = { ...inv, email: 'bob@x.org' };
    expect(rels(invitationLinks(h, person(), other, 'member'))).toEqual([REL.self]);
    expect(invitationLinks(h, person(), other, 'owner')).toEqual({
      [REL.self]: { href: `${A}/invitations/i1` }, [REL.withdrawInvitation]: { href: `${A}/invitations/i1/revoked` }, [REL.deleteInvitation]: { href: `${A}/invitations/i1` },
    });
    expect(rels(invitationLinks(h, person(), { ...other, status: 'REVOKED' }, 'editor'))).toEqual(sorted([REL.self, REL.deleteInvitation]));
    expect(invitationLinks(h, person(), { ...other, status: 'ACCEPTED', invitee_role: 'member' }, 'owner')).toEqual({
      [REL.self]: { href: `${A}/invitations/i1` }, [REL.withdrawInvitation]: { href: `${A}/invitations/i1/revoked` }, [REL.addAdministrator]: { href: `${A}/invitations/i1/administrator` },
    });
    expect(rels(invitationLinks(h, person(), { ...other, status: 'ACCEPTED', invitee_role: 'editor' }, 'owner'))).toEqual(sorted([REL.self, REL.withdrawInvitation, REL.withdrawAdministrator]));
    expect(rels(invitationLinks(h, person(), { ...other, status: 'ACCEPTED', invitee_role: 'owner' }, 'owner'))).toEqual(sorted([REL.self, REL.withdrawInvitation]));
  });
  it('where withdrawing an accepted invitee’s administration leads', () => {
    expect(invitationLinks(h, person(), { ...inv, email: 'bob@x.org', status: 'ACCEPTED', invitee_role: 'editor' }, 'editor')).toEqual({
      [REL.self]: { href: `${A}/invitations/i1` }, [REL.withdrawInvitation]: { href: `${A}/invitations/i1/revoked` },
      [REL.withdrawAdministrator]: { href: `${A}/invitations/i1/administrator` },
    });
  });
  it('an API key claims no invitation, even when its token carries its owner’s verified address', () => {
    const key: Caller = { ...apiKey(), principal: principal({ kind: 'client', clientId: 'k1', email: 'ann@x.org', emailVerified: true }) };
    expect(verifiedEmail(key)).toBeUndefined();
    expect(invitationLinks(h, key, inv, undefined)).toEqual({});
    expect(rootLinks(h, key)).not.toHaveProperty(REL.invitations);
  });
});

describe('members', () => {
  it('who removes whom: an owner anyone but an owner, an editor plain members, a member nobody', () => {
    const table: [MemberRole, MemberRole, boolean][] = [
      ['owner', 'owner', false], ['owner', 'editor', true], ['owner', 'member', true],
      ['editor', 'owner', false], ['editor', 'editor', false], ['editor', 'member', true],
      ['member', 'owner', false], ['member', 'editor', false], ['member', 'member', false],
    ];
    for (const [viewer, member, removes] of table) expect(canRemoveMember(viewer, member), `${viewer} removes ${member}`).toBe(removes);
  });
  it('the links of a member', () => {
    const self = { href: `${A}/workspaces/w1/members/p1` };
    const admin = { href: `${A}/workspaces/w1/administrators/p1` };
    expect(memberLinks(h, 'w1', { id: 'p1', role: 'member' }, 'member')).toEqual({ [REL.self]: self });
    expect(memberLinks(h, 'w1', { id: 'p1', role: 'member' }, 'editor')).toEqual({ [REL.self]: self, [REL.addAdministrator]: admin, [REL.deleteMember]: self });
    expect(memberLinks(h, 'w1', { id: 'p1', role: 'editor' }, 'owner')).toEqual({ [REL.self]: self, [REL.withdrawAdministrator]: admin, [REL.deleteMember]: self });
    expect(memberLinks(h, 'w1', { id: 'p1', role: 'owner' }, 'owner')).toEqual({ [REL.self]: self });
  });
});

describe('datasets, alerts, tags and lists', () => {
  const d = { id: 'd1', holds_rows: false, query: 'SELECT 1' };
  const EVERY_MEMBER = [REL.self, REL.likeDataset, REL.viewDataset, REL.related, REL.comments, REL.alerts, REL.newMessage];
  it('a member reads, stars, watches, comments; an admin also edits, deletes, raises alerts and sets rules', () => {
    const member = datasetViewer('member', { liked: false, subscription_type: null });
    expect(member).toEqual({ role: 'member', liked: false, subscribed: false, mayComment: true });
    expect(rels(datasetLinks(h, d, member))).toEqual(sorted([...EVERY_MEMBER, REL.data, REL.addSubscription, REL.newComment, REL.alertRules, REL.lineage]));
    const owner = datasetViewer('owner', { liked: true, subscription_type: 'ALL', comments_read_only: 'true' });
    expect(owner).toEqual({ role: 'owner', liked: true, subscribed: true, mayComment: true });
    expect(rels(datasetLinks(h, d, owner))).toEqual(
      sorted([...EVERY_MEMBER, REL.data, REL.deleteSubscription, REL.newComment, REL.alertRules, REL.lineage, REL.newAlert, REL.updateAlertRules, REL.editDataset, REL.deleteDataset]),
    );
  });
  it('without a query: data only while it holds rows; no rules or lineage', () => {
    const editor = datasetViewer('editor', { liked: false, subscription_type: null });
    expect(rels(datasetLinks(h, { ...d, query: null }, editor))).toEqual(sorted([...EVERY_MEMBER, REL.addSubscription, REL.newComment, REL.newAlert, REL.editDataset, REL.deleteDataset]));
    expect(datasetLinks(h, { ...d, query: null, holds_rows: true }, editor)[REL.data]).toEqual({ href: `${A}/datasets/d1/data` });
  });
  it('a member of a workspace with read-only comments is not offered to comment', () => {
    const member = datasetViewer('member', { liked: false, subscription_type: null, comments_read_only: 'true' });
    expect(member.mayComment).toBe(false);
    expect(datasetLinks(h, d, member)).not.toHaveProperty(REL.newComment);
  });
  it('alerts and tags', () => {
    expect(alertLinks(h, { id: 'a1' })).toEqual({ [REL.self]: { href: `${A}/alerts/a1` } });
    expect(alertDraftLinks(h, 'd1', 'a 2', 'editor')).toEqual({ [REL.createAlert]: { href: `${A}/datasets/d1/alerts/a%202` } });
    expect(alertDraftLinks(h, 'd1', 'a2', 'member')).toEqual({});
    expect(tagLinks(h, 'w1', 't1')).toEqual({ [REL.self]: { href: `${A}/workspaces/w1/tags/t1` } });
  });
  it('lists: a private one is its creator’s alone; the creator moves it between private and public; admins change lists and source channels', () => {
    const list = { id: 'c1', type: 'LIST', scope: 'PROFILE', creator_id: 'ann' };
    const ann = { role: 'member' as MemberRole, profileId: 'ann' };
    expect(channelLinks(h, list, { role: 'owner', profileId: 'bob' })).toEqual({});
    expect(rels(channelLinks(h, list, ann))).toEqual(sorted([REL.self, REL.datasets, REL.updateChannel, REL.deleteChannel, REL.addWorkspaceScope, REL.addSubscription]));
    expect(rels(channelLinks(h, { ...list, scope: 'WORKSPACE' }, { ...ann, subscribed: true }))).toEqual(sorted([REL.self, REL.datasets, REL.updateChannel, REL.deleteChannel, REL.withdrawWorkspaceScope, REL.deleteSubscription]));
    expect(rels(channelLinks(h, { ...list, scope: 'WORKSPACE' }, { role: 'member', profileId: 'bob' }))).toEqual(sorted([REL.self, REL.datasets, REL.addSubscription]));
    expect(rels(channelLinks(h, { ...list, scope: 'WORKSPACE' }, { role: 'editor', profileId: 'bob' }))).toEqual(sorted([REL.self, REL.datasets, REL.updateChannel, REL.deleteChannel, REL.addSubscription]));
    const source = { id: 'c2', type: 'SOURCE', scope: 'WORKSPACE', creator_id: null };
    expect(rels(channelLinks(h, source, { role: 'owner', profileId: 'bob' }))).toEqual(sorted([REL.self, REL.datasets, REL.updateChannel, REL.addSubscription]));
    expect(rels(channelLinks(h, source, ann))).toEqual(sorted([REL.self, REL.datasets, REL.addSubscription]));
    expect(channelLinks(h, { ...list, scope: 'WORKSPACE' }, ann)[REL.withdrawWorkspaceScope]).toEqual({ href: `${A}/channels/c1/scope/profile` });
    expect(channelLinks(h, list, ann)[REL.addWorkspaceScope]).toEqual({ href: `${A}/channels/c1/scope/workspace` });
    expect(channelDraftLinks(h, 'c 3', 'w1')).toEqual({ [REL.createChannel]: { href: `${A}/workspaces/w1/channels/c%203` } });
    expect(channelDraftLinks(h, 'c3', undefined)).toEqual({});
  });
  it('where a list’s links lead: the list, its datasets, its scope and its subscription', () => {
    const c = `${A}/channels/c1`;
    const ann = { role: 'member' as MemberRole, profileId: 'ann' };
    expect(channelLinks(h, { id: 'c1', type: 'LIST', scope: 'PROFILE', creator_id: 'ann' }, ann)).toEqual({
      [REL.self]: { href: c }, [REL.datasets]: { href: `${c}/datasets` }, [REL.updateChannel]: { href: c }, [REL.deleteChannel]: { href: c },
      [REL.addWorkspaceScope]: { href: `${c}/scope/workspace` }, [REL.addSubscription]: { href: `${c}/subscriptions` },
    });
    expect(channelLinks(h, { id: 'c1', type: 'LIST', scope: 'WORKSPACE', creator_id: 'ann' }, { ...ann, subscribed: true })).toEqual({
      [REL.self]: { href: c }, [REL.datasets]: { href: `${c}/datasets` }, [REL.updateChannel]: { href: c }, [REL.deleteChannel]: { href: c },
      [REL.withdrawWorkspaceScope]: { href: `${c}/scope/profile` }, [REL.deleteSubscription]: { href: `${c}/subscriptions` },
    });
  });
  it('a source channel is the workspace’s, even when a member is named as its creator: admins rename it, nobody deletes it', () => {
    const source = { id: 'c2', type: 'SOURCE', scope: 'WORKSPACE', creator_id: 'ann' };
    const ann = { role: 'member' as MemberRole, profileId: 'ann' };
    expect(canChangeChannel(source, ann)).toBe(false);
    expect(canDeleteChannel(source, ann)).toBe(false);
    expect(rels(channelLinks(h, source, ann))).toEqual(sorted([REL.self, REL.datasets, REL.addSubscription]));
    expect(canChangeChannel(source, { role: 'editor', profileId: 'bob' })).toBe(true);
    expect(canDeleteChannel(source, { role: 'owner', profileId: 'bob' })).toBe(false);
    // a list, by contrast: its creator and the admins change and delete it, another member neither
    const list = { id: 'c1', type: 'LIST', scope: 'WORKSPACE', creator_id: 'ann' };
    expect([canChangeChannel(list, ann), canDeleteChannel(list, ann)]).toEqual([true, true]);
    expect([canChangeChannel(list, { role: 'owner', profileId: 'bob' }), canDeleteChannel(list, { role: 'owner', profileId: 'bob' })]).toEqual([true, true]);
    expect([canChangeChannel(list, { role: 'member', profileId: 'bob' }), canDeleteChannel(list, { role: 'member', profileId: 'bob' })]).toEqual([false, false]);
  });
  it('a watched dataset is unwatched at its subscriptions', () => {
    const watcher = datasetViewer('member', { liked: false, subscription_type: 'ALL' });
    expect(datasetLinks(h, d, watcher)[REL.deleteSubscription]).toEqual({ href: `${A}/datasets/d1/subscriptions` });
  });
});

describe('the caller', () => {
  it('mayRun and verifiedEmail: a verified person runs and proves their address; a key proves none', () => {
    expect(mayRun(person())).toBe(true);
    expect(mayRun(person({ verified: false }))).toBe(false);
    expect(verifiedEmail(person())).toBe('ann@x.org');
    expect(verifiedEmail(person({ verified: false }))).toBeUndefined();
    expect(verifiedEmail(apiKey())).toBeUndefined();
    expect(verifiedEmail({ ...person(), principal: principal({ email: undefined }) })).toBeUndefined();
  });
  it('a token issued before the credentials changed is refused; one issued in that second or later is not', () => {
    const changed = new Date('2024-01-01T00:00:10.700Z');
    const at = (issuedAt: number | undefined) => () => requireCurrentToken(principal({ issuedAt }), { credentials_changed_at: changed });
    expect(at(Date.parse('2024-01-01T00:00:09Z') / 1000)).toThrow(expect.objectContaining({ status: 401, message: 'Invalid or expired access token' }));
    expect(at(undefined)).toThrow(expect.objectContaining({ status: 401 }));
    expect(at(Date.parse('2024-01-01T00:00:10Z') / 1000)).not.toThrow();
    expect(() => requireCurrentToken(principal({ kind: 'client', issuedAt: 0 }), { credentials_changed_at: changed })).not.toThrow();
    expect(() => requireCurrentToken(principal({ issuedAt: 0 }), { credentials_changed_at: null })).not.toThrow();
  });
  it('resolveCallerWith: a person by subject, a key by client id (401 once the key is gone), the workspace read with it', async () => {
    const row = { profile: profile({ id: 'auth0|ann' }), apiKeyId: 'k1', workspace: { row: { id: 'w1' } as never, role: 'editor' as MemberRole } };
    const keys: unknown[] = [];
    const read = (key: unknown) => {
      keys.push(key);
      return Promise.resolve({ caller: row, rows: [1] });
    };
    const user = await resolveCallerWith(principal(), 'w1', read);
    expect(user.caller).toMatchObject({ kind: 'user', profileId: 'auth0|ann', apiKeyId: undefined, prefetched: { id: 'w1', role: 'editor' } });
    expect(user.rows).toEqual([1]);
    const client = await resolveCallerWith(principal({ kind: 'client', clientId: 'c9', subject: 'c9' }), undefined, read);
    expect(client.caller).toMatchObject({ kind: 'client', profileId: 'auth0|ann', apiKeyId: 'k1', prefetched: undefined });
    expect(keys).toEqual([{ profileId: 'auth0|ann' }, { clientId: 'c9' }]);
    await expect(resolveCallerWith(principal({ kind: 'client', clientId: 'c9' }), undefined, () => Promise.resolve({ caller: undefined, rows: [] }))).rejects.toMatchObject({ status: 401, message: 'The API key of this token no longer exists' });
    await expect(resolveCallerWith(principal({ kind: 'client', clientId: undefined }), undefined, read)).rejects.toMatchObject({ status: 401 });
    const stale = { ...row, profile: profile({ credentials_changed_at: new Date('2030-01-01T00:00:00Z') }) };
    await expect(resolveCallerWith(principal(), undefined, () => Promise.resolve({ caller: stale, rows: [] }))).rejects.toMatchObject({ status: 401 });
    const nobody = await resolveCallerWith(principal(), 'w1', () => Promise.resolve({ caller: undefined, rows: [] }));
    expect(nobody.caller).toMatchObject({ kind: 'user', profile: undefined, prefetched: undefined });
  });
});

describe('requireOffered with a pinned URL: the request must address the offered link itself', () => {
  const offer = { links: { [REL.updateComment]: { href: `${A}/comments/c1?email=Ann%40X.org` }, [REL.self]: { href: `${A}/comments/c1/` } } };
  it('the same path (a trailing slash or encoding aside) and the same value of every parameter the link carries', () => {
    expect(() => requireOffered(offer, REL.updateComment, '/api/comments/c1?email=ann@x.org')).not.toThrow();
    expect(() => requireOffered(offer, REL.updateComment, '/api/comments/c1')).not.toThrow();
    expect(() => requireOffered(offer, REL.self, '/api/comments/%63%31')).not.toThrow();
    expect(() => requireOffered(offer, REL.updateComment, '/api/comments/c2?email=ann@x.org')).toThrow(expect.objectContaining({ status: 403, message: "Access is denied: 'update comment' does not lead here" }));
    expect(() => requireOffered(offer, REL.updateComment, '/api/comments/c1?email=bob@x.org')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => requireOffered(offer, REL.updateComment, '/api/comments/c1?email=ann@x.org&email=bob@x.org')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => requireOffered(offer, [REL.deleteComment, REL.updateComment], '/api/comments/c1')).not.toThrow();
  });
  it('names every rel it refused', () => {
    expect(() => requireOffered(offer, [REL.deleteComment, REL.history])).toThrow(expect.objectContaining({ status: 403, message: "Access is denied: 'delete comment' or 'history' is not available to you" }));
  });
});

describe('where the links of datasets, comments, pipelines and invitations lead', () => {
  it('a dataset’s, for its admin', () => {
    const viewer = datasetViewer('owner', { liked: false, subscription_type: null });
    const d = `${A}/datasets/d1`;
    expect(datasetLinks(h, { id: 'd1', holds_rows: false, query: 'SELECT 1' }, viewer)).toEqual({
      [REL.self]: { href: d }, [REL.data]: { href: `${d}/data` }, [REL.likeDataset]: { href: `${d}/like` }, [REL.viewDataset]: { href: `${d}/view` },
      [REL.addSubscription]: { href: `${d}/subscriptions` }, [REL.related]: { href: `${d}/related` }, [REL.comments]: { href: `${d}/comments` },
      [REL.newComment]: { href: `${d}/comments` }, [REL.alerts]: { href: `${d}/alerts` }, [REL.newAlert]: { href: `${d}/alerts` }, [REL.newMessage]: { href: `${d}/messages` },
      [REL.alertRules]: { href: `${d}/alert-rules` }, [REL.updateAlertRules]: { href: `${d}/alert-rules` }, [REL.lineage]: { href: `${d}/lineage` },
      [REL.editDataset]: { href: d }, [REL.deleteDataset]: { href: d },
    });
  });

  it('a pipeline’s, for its admin', () => {
    const p = `${A}/pipelines/p1`;
    const links = pipelineLinksFor();
    expect(links).toEqual({
      [REL.self]: { href: p }, [REL.jobs]: { href: `${p}/jobs` }, [REL.metrics]: { href: `${p}/metrics` }, [REL.environment]: { href: `${p}/environment` },
      [REL.createJob]: { href: `${p}/jobs` }, [REL.verifyPipeline]: { href: `${p}/verification` }, [REL.state]: { href: `${p}/state` }, [REL.streams]: { href: `${p}/streams` },
      [REL.lineage]: { href: `${p}/lineage` }, [REL.fullRefresh]: { href: `${p}/state` }, [REL.updatePipeline]: { href: p }, [REL.draftPipeline]: { href: `${p}/draft` },
      [REL.deletePipeline]: { href: p }, [REL.addSubscription]: { href: `${p}/subscriptions` },
      [REL.datacomponents]: { href: `${A}/workspaces/w1/datacomponents` }, [REL.dataplugins]: { href: `${A}/workspaces/w1/dataplugins` },
    });
  });

  it('an accepted invitation: a plain member still only reads it', () => {
    for (const invitee_role of ['member', 'editor'] as MemberRole[]) {
      expect(rels(invitationLinks(h, person(), { id: 'i1', email: 'bob@x.org', status: 'ACCEPTED', invitee_role }, 'member'))).toEqual([REL.self]);
    }
  });
});

function pipelineLinksFor() {
  return pipelineLinks(h, { id: 'p1', workspace_id: 'w1' }, 'owner', { draft: false, complete: true, activeJobId: undefined, subscribed: false, runs: true });
}
