import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { featureSwitches } from './features';
import {
  canCreateApiKey,
  canCreateWorkspace,
  canInvite,
  canManageAccount,
  canSwitchToLab,
  canSwitchWorkspace,
  isOwner,
  isWorkspaceAdmin,
  showMembers,
  showTasksEntry,
  showWorkspaceSettings,
} from './permissions';

const link = { href: '/x' };
const owner = { _links: { self: link, 'new workspace': link } };
const member = { _links: { self: link } };
const adminWorkspace = { _links: { self: link, 'update delete workspace': [link] } };
const plainWorkspace = { _links: { self: link } };
const nothingDisabled = featureSwitches(null, null);

describe('roles come from links', () => {
  it("owner: the profile has 'new workspace'", () => {
    expect(isOwner(owner)).toBe(true);
    expect(isOwner(member)).toBe(false);
    expect(isOwner(null)).toBe(false);
    expect(canCreateWorkspace(owner)).toBe(true);
    expect(canCreateWorkspace(member)).toBe(false);
  });

  it("workspace admin: the workspace has 'update delete workspace'", () => {
    expect(isWorkspaceAdmin(adminWorkspace)).toBe(true);
    expect(isWorkspaceAdmin(plainWorkspace)).toBe(false);
    expect(isWorkspaceAdmin(undefined)).toBe(false);
    expect(showTasksEntry(adminWorkspace)).toBe(true);
    expect(showTasksEntry(plainWorkspace)).toBe(false);
    expect(showWorkspaceSettings(adminWorkspace)).toBe(true);
    expect(showWorkspaceSettings(plainWorkspace)).toBe(false);
  });

  it("New API token needs the root's 'new apikey'", () => {
    expect(canCreateApiKey({ _links: { 'new apikey': link } })).toBe(true);
    expect(canCreateApiKey({ _links: {} })).toBe(false);
    expect(canCreateApiKey(null)).toBe(false);
  });
});

describe('roles combined with feature switches', () => {
  it('Lab/App switch: admin unless APP is disabled', () => {
    expect(canSwitchToLab(adminWorkspace, nothingDisabled)).toBe(true);
    expect(canSwitchToLab(plainWorkspace, nothingDisabled)).toBe(false);
    expect(canSwitchToLab(adminWorkspace, featureSwitches(null, { featuresDisabled: 'APP' }))).toBe(false);
    expect(canSwitchToLab(adminWorkspace, featureSwitches('app', null))).toBe(false);
  });

  it('Manage Account: owner and MANAGE_ACCOUNT enabled', () => {
    expect(canManageAccount(owner, nothingDisabled)).toBe(true);
    expect(canManageAccount(member, nothingDisabled)).toBe(false);
    expect(canManageAccount(owner, featureSwitches('MANAGE_ACCOUNT', null))).toBe(false);
  });

  it("Invite: the workspace's 'create invitation' link, unless INVITATIONS is switched off", () => {
    const inviting = { _links: { self: link, 'create invitation': link } };
    expect(canInvite(inviting, nothingDisabled)).toBe(true);
    // An admin workspace without the link offers no invitation: links, never roles.
    expect(canInvite(adminWorkspace, nothingDisabled)).toBe(false);
    expect(canInvite(plainWorkspace, nothingDisabled)).toBe(false);
    expect(canInvite(inviting, featureSwitches(null, { featuresDisabled: 'INVITATIONS' }))).toBe(false);
    expect(canInvite(null, nothingDisabled)).toBe(false);
  });

  it('Members only where the workspace offers its members link', () => {
    expect(showMembers({ _links: { self: link, members: link } })).toBe(true);
    expect(showMembers(member)).toBe(false);
    expect(showMembers(null)).toBe(false);
  });

  it('Switch Workspace only with more than one workspace', () => {
    expect(canSwitchWorkspace(0)).toBe(false);
    expect(canSwitchWorkspace(1)).toBe(false);
    expect(canSwitchWorkspace(2)).toBe(true);
  });

  it('no link, no permission, whatever else the resource holds', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string().filter((rel) => rel !== 'new workspace' && rel !== 'update delete workspace' && rel !== 'new apikey' && rel !== 'create invitation'), fc.constant(link)), (links) => {
        const resource = { _links: links };
        expect(canInvite(resource, nothingDisabled)).toBe(false);
        expect(isOwner(resource)).toBe(false);
        expect(isWorkspaceAdmin(resource)).toBe(false);
        expect(canCreateApiKey(resource)).toBe(false);
        expect(canManageAccount(resource, nothingDisabled)).toBe(false);
        expect(canSwitchToLab(resource, nothingDisabled)).toBe(false);
      }),
    );
  });
});
