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

function callerIn(role: MemberRole): Caller {
  return {
    kind: 'user',
    principal: { subject: 'auth0|x', email: undefined, emailVerified: false, name: undefined, clientId: undefined, kind: 'user' },
    profileId: 'auth0|x',
    profile: undefined,
    apiKeyId: undefined,
    prefetched: { id: workspace.id, workspace, role },
  };
}

describe('workspaceAccess', () => {
  it("offers each role exactly the rels of that role's rendered links, and renders them only when read", async () => {
    for (const role of ROLES) {
      const access = await workspaceAccess(db, h, callerIn(role), workspace.id);
      expect([...access.rels].sort()).toEqual(Object.keys(workspaceLinks(h, workspace, role)).sort());
      expect(access.links).toBe(access.links);
      expect(access.links[REL.feed]?.href).toBe(`https://data.example/api/workspaces/${workspace.id}/feed`);
    }
  });

  it('decides like the rendered links for every rel, for every role', async () => {
    const rels = [...Object.values(REL), 'no such rel', '__proto__', 'constructor'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROLES), fc.constantFrom(...rels), async (role, rel) => {
        const access = await workspaceAccess(db, h, callerIn(role), workspace.id);
        const rendered = { links: workspaceLinks(h, workspace, role) };
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
