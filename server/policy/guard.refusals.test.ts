import { describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import { HttpError } from '../http/errors';
import type { WorkspaceRow } from '../repositories/workspaces';
import { VERIFY_EMAIL_TO_RUN, type Caller, type WorkspaceLookup } from './caller';
import { requireOffered, workspaceAccess } from './guard';
import { hrefs } from './hrefs';

// The guard's refusals on their own (issue 40, item 4): a stranger is answered as a made-up id is
// (404), an unverified caller is told to verify only when what they asked for queues work, and a
// pinned request must address the offered link itself. Expectations are this file's own.

const W = '6d57d858-3c6d-40d0-9d9e-48fa69311f24';
const workspace = { id: W, name: 'W' } as WorkspaceRow;
// never queried: each caller brings the workspace lookup with it, or names an id that is no UUID
const db = undefined as unknown as Db;

function caller(prefetched: WorkspaceLookup | undefined, emailVerified = true): Caller {
  return {
    kind: 'user',
    principal: { subject: 'auth0|x', email: undefined, emailVerified, name: undefined, clientId: undefined, kind: 'user', issuedAt: undefined },
    profileId: 'auth0|x',
    profile: undefined,
    apiKeyId: undefined,
    prefetched,
  };
}
const status = async (run: Promise<unknown>) => {
  const error = await run.then(() => undefined, (e: unknown) => e);
  return error instanceof HttpError ? `${error.status} ${error.message}` : error;
};

describe('workspaceAccess refuses whoever is not a member as if the workspace did not exist', () => {
  const h = hrefs({ publicUrl: 'https://d.example' });

  it('no workspace, or a workspace without a role: 404 naming the id', async () => {
    expect(await status(workspaceAccess(db, h, caller({ id: W, workspace: undefined, role: undefined }), W))).toBe(`404 Workspace ${W} not found`);
    expect(await status(workspaceAccess(db, h, caller({ id: W, workspace, role: undefined }), W))).toBe(`404 Workspace ${W} not found`);
    expect(await status(workspaceAccess(db, h, caller({ id: W, workspace: undefined, role: 'owner' }), W))).toBe(`404 Workspace ${W} not found`);
  });

  it("a resource in the workspace answers with its own 404", async () => {
    const unseen = () => new HttpError(404, 'Dataset d1 not found');
    expect(await status(workspaceAccess(db, h, caller({ id: W, workspace: undefined, role: undefined }), W, unseen))).toBe('404 Dataset d1 not found');
  });

  it('what was read for another workspace is not used; an id that is no UUID names nothing', async () => {
    const c = caller({ id: W, workspace, role: 'owner' });
    expect(await status(workspaceAccess(db, h, c, 'not-a-uuid'))).toBe('404 Workspace not-a-uuid not found');
    // still there for the workspace it was read for, and used once
    const access = await workspaceAccess(db, h, c, W);
    expect(access.role).toBe('owner');
    expect(c.prefetched).toBeUndefined();
    // a caller who brings no lookup at all is looked up (an id that is no UUID: without the database)
    expect(await status(workspaceAccess(db, h, caller(undefined), 'not-a-uuid'))).toBe('404 Workspace not-a-uuid not found');
  });

  it('a member is let in with their role', async () => {
    for (const role of ['owner', 'editor', 'member'] as MemberRole[]) {
      const access = await workspaceAccess(db, h, caller({ id: W, workspace, role }), W);
      expect(access.workspace).toBe(workspace);
      expect(access.role).toBe(role);
      expect(access.rels.has(REL.jobs)).toBe(role !== 'member');
    }
  });
});

describe('requireOffered', () => {
  const A = 'https://d.example/api';
  const offer = { links: { [REL.feed]: { href: `${A}/workspaces/${W}/feed` }, [REL.self]: { href: `${A}/workspaces/${W}?email=Ann%40X.org` } } };
  const refusal = (run: () => void): string => {
    try {
      run();
    } catch (error) {
      return `${(error as HttpError).status} ${(error as Error).message}`;
    }
    return 'allowed';
  };

  it('tells an unverified caller to verify when one of the rels they asked for queues work', () => {
    const unverified = caller(undefined, false);
    expect(refusal(() => requireOffered(offer, [REL.createJob, REL.jobs], undefined, unverified))).toBe(`403 ${VERIFY_EMAIL_TO_RUN}`);
    expect(refusal(() => requireOffered(offer, [REL.jobs, REL.newDatastore], undefined, unverified))).toBe(`403 ${VERIFY_EMAIL_TO_RUN}`);
  });

  it('refuses plainly what queues no work, a verified caller, or when no caller is given', () => {
    const denied = "403 Access is denied: 'create job' or 'jobs' is not available to you";
    expect(refusal(() => requireOffered(offer, [REL.createJob, REL.jobs], undefined, caller(undefined, true)))).toBe(denied);
    expect(refusal(() => requireOffered(offer, [REL.createJob, REL.jobs]))).toBe(denied);
    expect(refusal(() => requireOffered(offer, REL.jobs, undefined, caller(undefined, false)))).toBe("403 Access is denied: 'jobs' is not available to you");
  });

  it('with a pinned URL, one offered rel that leads there is enough', () => {
    expect(refusal(() => requireOffered(offer, [REL.self, REL.feed], `/api/workspaces/${W}/feed`))).toBe('allowed');
    expect(refusal(() => requireOffered(offer, [REL.self, REL.feed], `/api/workspaces/${W}/jobs`))).toBe("403 Access is denied: 'self' or 'feed' does not lead here");
  });

  it('trailing slashes and spaces around a parameter do not matter; its value does', () => {
    expect(refusal(() => requireOffered(offer, REL.feed, `/api/workspaces/${W}/feed//`))).toBe('allowed');
    expect(refusal(() => requireOffered(offer, REL.self, `/api/workspaces/${W}?email=%20ann@x.org%20`))).toBe('allowed');
    expect(refusal(() => requireOffered(offer, REL.self, `/api/workspaces/${W}?email=bob@x.org`))).toBe("403 Access is denied: 'self' does not lead here");
  });
});
