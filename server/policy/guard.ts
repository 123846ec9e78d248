import { safeDecode } from '../../src/domain/paths';
import type { Db } from '../db/database';
import type { MemberRole } from '../db/schema';
import { forbidden, notFound, type HttpError } from '../http/errors';
import type { Links } from '../http/hal';
import { isUuid } from '../repositories/ids';
import { findWorkspaceWithRole, type WorkspaceRow } from '../repositories/workspaces';
import { mayRun, VERIFY_EMAIL_TO_RUN, type Caller, type WorkspaceLookup } from './caller';
import type { Hrefs } from './hrefs';
import { RUN_RELS, workspaceLinks } from './links';

/** What the caller is offered on a resource: its links, and maybe their rels known without rendering them. */
export interface Offer {
  links: Links;
  /** the rels of `links`, when they are known without rendering the links */
  rels?: ReadonlySet<string>;
}

export interface WorkspaceAccess extends Offer {
  workspace: WorkspaceRow;
  role: MemberRole;
  /** rendered when first read: most resources in a workspace only need its role */
  readonly links: Links;
  rels: ReadonlySet<string>;
}

// A workspace offers the same rels to every holder of a role who may (or may not) run things
// (workspaceLinks reads nothing else besides ids), so each server finds them once per role and
// that flag, from the links themselves. The guard's test then renders no links: forty hrefs per
// request were a twentieth of a feed read (issue 21).
const relsByRole = new WeakMap<Hrefs, Map<`${MemberRole} ${boolean}`, ReadonlySet<string>>>();
function workspaceRels(h: Hrefs, role: MemberRole, runs: boolean): ReadonlySet<string> {
  let byRole = relsByRole.get(h);
  if (!byRole) relsByRole.set(h, (byRole = new Map<`${MemberRole} ${boolean}`, ReadonlySet<string>>()));
  let rels = byRole.get(`${role} ${runs}`);
  if (!rels) byRole.set(`${role} ${runs}`, (rels = new Set(Object.keys(workspaceLinks(h, { id: '00000000-0000-0000-0000-000000000000' }, role, runs)))));
  return rels;
}

/**
 * What the caller is offered on the workspace. To anyone not a member of it the workspace does not
 * exist: they get the 404 an id that names nothing gets (`unseen`, by default the workspace's own;
 * a resource in the workspace passes its own), so no answer tells a stranger which ids are real
 * (docs/decisions.md, "Existence oracles (issue 36)"). A member refused a relation still gets 403.
 */
export async function workspaceAccess(
  db: Db,
  h: Hrefs,
  caller: Caller,
  workspaceId: string,
  unseen: () => HttpError = () => notFound(`Workspace ${workspaceId} not found`),
): Promise<WorkspaceAccess> {
  const { workspace, role } = takePrefetched(caller, workspaceId) ?? (await lookUp(db, caller, workspaceId));
  if (!workspace || !role) throw unseen();
  let links: Links | undefined;
  const runs = mayRun(caller);
  return {
    workspace,
    role,
    rels: workspaceRels(h, role, runs),
    get links() {
      return (links ??= workspaceLinks(h, workspace, role, runs));
    },
  };
}

/**
 * What the request's own query read with the caller, used once: a second call in the same request
 * (after the route changed a membership, say) reads afresh.
 */
function takePrefetched(caller: Caller, workspaceId: string): WorkspaceLookup | undefined {
  const prefetched = caller.prefetched;
  if (prefetched?.id !== workspaceId) return undefined;
  caller.prefetched = undefined;
  return prefetched;
}

/** The workspace and the caller's role in one query; a caller without a profile is a member of nothing. */
async function lookUp(db: Db, caller: Caller, workspaceId: string): Promise<{ workspace: WorkspaceRow | undefined; role: MemberRole | undefined }> {
  if (!isUuid(workspaceId)) return { workspace: undefined, role: undefined };
  const found = await findWorkspaceWithRole(db, workspaceId, caller.profile ? caller.profileId : undefined);
  return { workspace: found?.workspace, role: found?.role };
}

/**
 * The one authorisation test: the caller may do what the rendered links offer, and nothing else
 * (403). One of `rels` must be offered. With `pinnedUrl` the request must also address
 * that link itself — the same path, and the same value for every query parameter the href carries
 * that the request sends (a missing one is left to validation, which names the field). With the
 * `caller`, a refused rel that queues work (RUN_RELS) tells a caller who may not run things that
 * verifying their email is what they need (a precondition, whatever else they may lack).
 */
export function requireOffered(offer: Offer, rels: string | readonly string[], pinnedUrl?: string, caller?: Caller): void {
  const wanted = typeof rels === 'string' ? [rels] : rels;
  const offered = wanted.filter((rel) => (offer.rels ? offer.rels.has(rel) : Object.hasOwn(offer.links, rel)));
  if (offered.length === 0) {
    if (caller && !mayRun(caller) && wanted.some((rel) => RUN_RELS.has(rel))) throw forbidden(VERIFY_EMAIL_TO_RUN);
    throw forbidden(`Access is denied: '${wanted.join("' or '")}' is not available to you`);
  }
  if (pinnedUrl === undefined) return;
  if (!offered.some((rel) => addresses(offer.links[rel]?.href ?? '', pinnedUrl))) {
    throw forbidden(`Access is denied: '${offered.join("' or '")}' does not lead here`);
  }
}

function addresses(href: string, requestUrl: string): boolean {
  const link = new URL(href);
  const request = new URL(requestUrl, link);
  const path = (url: URL) => safeDecode(url.pathname).replace(/\/+$/, '');
  if (path(link) !== path(request)) return false;
  for (const [name, value] of link.searchParams) {
    const sent = request.searchParams.getAll(name);
    // Addresses and ids compare without regard to case, as the policy stores them.
    if (sent.some((v) => v.trim().toLowerCase() !== value.toLowerCase())) return false;
  }
  return true;
}
