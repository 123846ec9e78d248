import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REL } from '../../src/domain/relations';
import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import type { WorkspaceRow } from '../repositories/workspaces';
import type { Caller } from './caller';
import { requireOffered, workspaceAccess } from './guard';
import { hrefs } from './hrefs';
import { workspaceLinks } from './links';

const h = hrefs({ publicUrl: 'https://data.example' });
const ROLES: readonly MemberRole[] = ['owner', 'editor', 'member'];
const workspace = { id: '6d57d858-3c6d-40d0-9d9e-48fa69311f24', name: 'W' } as WorkspaceRow;
// never queried: the caller brings the workspace with it, as a route's own statement does
const db = undefined as unknown as Db;

function callerIn(role: MemberRole, emailVerified: boolean): Caller {
  return {
    kind: 'user',
    principal: { subject: 'auth0|x', email: undefined, emailVerified, name: undefined, clientId: undefined, kind: 'user', issuedAt: undefined },
    profileId: 'auth0|x',
    profile: undefined,
    apiKeyId: undefined,
    prefetched: { id: workspace.id, workspace, role },
  };
}

describe('workspaceAccess', () => {
  it("offers each role exactly the rels of that role's rendered links, and renders them only when read", async () => {
    for (const role of ROLES) {
      for (const verified of [true, false]) {
        const access = await workspaceAccess(db, h, callerIn(role, verified), workspace.id);
        expect([...access.rels].sort()).toEqual(Object.keys(workspaceLinks(h, workspace, role, verified)).sort());
        expect(access.links).toBe(access.links);
        expect(access.links[REL.feed]?.href).toBe(`https://data.example/api/workspaces/${workspace.id}/feed`);
      }
    }
  });

  it('offers nothing that queues a job to a caller whose email is not verified, and says why it refuses', async () => {
    const verified = await workspaceAccess(db, h, callerIn('owner', true), workspace.id);
    const unverifiedCaller = callerIn('owner', false);
    const unverified = await workspaceAccess(db, h, unverifiedCaller, workspace.id);
    for (const rel of [REL.createDeployment, REL.newDatastore]) {
      expect(verified.rels.has(rel)).toBe(true);
      expect(unverified.rels.has(rel)).toBe(false);
      expect(() => requireOffered(unverified, rel, undefined, unverifiedCaller)).toThrow(/verify your email/);
    }
    // the owner's other rels are the same either way
    expect([...verified.rels].filter((rel) => !unverified.rels.has(rel)).sort()).toEqual([REL.createDeployment, REL.newDatastore].sort());
  });

  it('decides like the rendered links for every rel, for every role', async () => {
    const rels = [...Object.values(REL), 'no such rel', '__proto__', 'constructor'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROLES), fc.boolean(), fc.constantFrom(...rels), async (role, verified, rel) => {
        const access = await workspaceAccess(db, h, callerIn(role, verified), workspace.id);
        const rendered = { links: workspaceLinks(h, workspace, role, verified) };
        const verdict = (offer: Parameters<typeof requireOffered>[0]) => {
          try {
            requireOffered(offer, rel);
            return 'offered';
          } catch (error) {
            return (error as { status?: number }).status;
          }
        };
        expect(verdict(access)).toBe(verdict(rendered));
        expect(verdict(rendered)).toBe(Object.hasOwn(rendered.links, rel) ? 'offered' : 403);
      }),
      { numRuns: 300 },
    );
  });
});
