import type { ResourceKind } from '../../../server/policy/access';

// The permission table (issue 40): who is offered which relation on each kind of resource,
// written by hand from the specs and the product's rules — never computed from server/policy.
// A change of the policy that changes what somebody is offered fails permission-table.test.ts
// until this table is changed too, in review.
//
// Roles: the demo workspace's owner, an administrator who owns nothing (role 'editor'), a plain
// member, and an outsider (verified owner of another workspace, no role in the demo workspace).
// The rules quoted: spec 000 §6 (admin = the workspace's 'update delete workspace'; owner = the
// profile's 'new workspace'), spec 001 (the Lab — pipelines, components, plugins, stores, jobs — is
// for administrators), spec 002 (members read, star, comment, watch, list; admins invite, edit and
// delete datasets, set alert rules).
//
// The fixture state each entry assumes is that of fixtures.ts `prepare`: every resource made by
// the owner, nobody watches or stars anything, no job is active.

export type Role = 'owner' | 'editor' | 'member' | 'outsider';
export const ROLES: readonly Role[] = ['owner', 'editor', 'member', 'outsider'];

/** What one role is offered on a kind's own view: its `_links` keys, or the view refused (403/404). */
type Expected = ReadonlySet<string> | 'refused';

interface Rule {
  /** offered to every role that sees the resource */
  all?: readonly string[];
  /** offered to the workspace's administrators (owner, editor) besides */
  admins?: readonly string[];
  /** offered to one role besides (the owner's own item, a profile's mark) */
  only?: Partial<Record<Role, readonly string[]>>;
  /** roles that do not see the resource at all; by default the outsider */
  refused?: readonly Role[];
  /**
   * For the *OrDraft kinds: what a role is offered at the id when, to them, it names nothing (the
   * id is free: somebody else's key, a workspace they are not in). The view answers as the base kind.
   */
  draft?: Partial<Record<Role, readonly string[]>>;
}

const ADMINS: readonly Role[] = ['owner', 'editor'];

/** Every member of the workspace reads and works with datasets, lists and the feed (spec 002 intro). */
const WORKSPACE_MEMBERS = [
  'self', 'channels', 'questions', 'feed', 'search', 'tags', 'liked', 'news', 'news channels', 'news tags',
  'members', 'administrators', 'notifications', 'add subscription', 'invitations', 'create channel', 'datasets', 'resources',
];
/** Administration and the Lab (spec 000 §6, spec 001 intro, spec 002 'admins invite people'). */
const WORKSPACE_ADMINS = [
  'update delete workspace', 'member subscriptions', 'create invitation', 'jobs', 'create deployment',
  'pipelines', 'new pipeline', 'validate pipeline', 'datacomponents', 'create datacomponent', 'dataplugins', 'availabledataplugins',
  'discovery.yml', 'publish discovery.yml', 'datastores', 'datastore', 'new datastore', 'tables', 'lineage events',
  'publish dataset', 'preview dataset', 'publish resources',
];

const RULES: Record<ResourceKind, Rule> = {
  // Every signed-in person's entry point. 'new workspace' is the profile's owner mark (spec 000 §6):
  // the seeded member has none; the owner, the outsider and a fresh sign-up (the editor) have it
  // (docs/decisions.md, "Self-serve workspaces").
  root: {
    all: [
      'self', 'profile', 'profiles', 'workspaces', 'apikeys', 'new apikey', 'notifications', 'subscriptions', 'notification settings',
      'update notification settings', 'invitations', 'sent invitations', 'new channel', 'discovery.yml', 'dataplugins', 'new dataplugin', 'login',
    ],
    only: { owner: ['new workspace'], editor: ['new workspace'], outsider: ['new workspace'] },
    refused: [],
  },
  // A profile is its person's alone (the view is the owner's profile): nobody else reads it.
  profile: { only: { owner: ['self', 'update profile', 'workspaces', 'new workspace'] }, refused: ['editor', 'member', 'outsider'] },
  workspace: { all: WORKSPACE_MEMBERS, admins: WORKSPACE_ADMINS },
  // An existing workspace answers as itself; to the outsider it is a free id, which an owner-marked
  // person may create at (the PUT then says 409; the empty body says 400 first).
  workspaceOrDraft: { all: WORKSPACE_MEMBERS, admins: WORKSPACE_ADMINS, draft: { outsider: ['create workspace'] } },
  // Jobs are the Lab's (spec 001): admins read their logs and delete a finished one. Assumes the job is not active.
  job: { admins: ['self', 'logs', 'delete job'], refused: ['member', 'outsider'] },
  // Spec 002: members read, star, count a view, watch, comment, message about and find related
  // datasets, and read its alerts; admins edit, delete and raise alerts. Assumes a dataset of rows
  // without a query (no 'lineage', no 'alert rules'), not watched by the caller, comments writable.
  dataset: {
    all: ['self', 'data', 'like dataset', 'view dataset', 'add subscription', 'related', 'comments', 'new comment', 'alerts', 'new message'],
    admins: ['edit dataset', 'delete dataset', 'new alert'],
  },
  // A source channel (datasets name it): every member reads and watches it; its admins rename it;
  // nobody deletes it (it goes with its source). Assumes nobody watches it.
  channel: { all: ['self', 'datasets', 'add subscription'], admins: ['update channel'] },
  // Spec 002 §4: admins manage invitations (withdraw, delete while not accepted); members read
  // the workspace's invitations. Assumes a PENDING invitation to an address none of the roles has.
  invitation: { all: ['self'], admins: ['withdraw invitation', 'delete invitation'] },
  // A key is its person's alone (spec 000: GET /apikeys lists the caller's own). Assumes the owner's key.
  apikey: { only: { owner: ['self', 'update apikey', 'delete apikey'] }, refused: ['editor', 'member', 'outsider'] },
  // Somebody else's key id is a free id to them: every verified person mints keys ('new apikey').
  apikeyOrDraft: {
    only: { owner: ['self', 'update apikey', 'delete apikey'] },
    refused: ['editor', 'member', 'outsider'],
    draft: { editor: ['create apikey'], member: ['create apikey'], outsider: ['create apikey'] },
  },
  // A notification is its recipient's alone. Assumes the owner's, unread.
  notification: { only: { owner: ['self', 'resolve notification', 'delete notification'] }, refused: ['editor', 'member', 'outsider'] },
  // The Lab (spec 001): admins only. Assumes a saved, complete pipeline with no active job, not watched by the caller.
  pipeline: {
    admins: [
      'self', 'jobs', 'metrics', 'environment', 'create job', 'verify pipeline', 'state', 'streams', 'lineage', 'full refresh',
      'update pipeline', 'draft pipeline', 'delete pipeline', 'add subscription', 'datacomponents', 'dataplugins',
    ],
    refused: ['member', 'outsider'],
  },
  // The Lab: admins only.
  dataComponent: { admins: ['self', 'update datacomponent', 'authorize datacomponent', 'disconnect datacomponent', 'delete datacomponent'], refused: ['member', 'outsider'] },
  // The Lab: admins only. Assumes a PostgreSQL store of the workspace's own, not the default, not yet checked (no 'make-default').
  dataStore: { admins: ['self', 'update datastore', 'delete datastore'], refused: ['member', 'outsider'] },
  // The Lab's plugin catalogue: admins only. Assumes the built-in demo extractor (installed, never removed).
  dataPlugin: { admins: ['self'], refused: ['member', 'outsider'] },
  // A workspace's own plugin is its admins' (spec 001's plugin catalogue). Assumes one no component uses.
  globalDataPlugin: { admins: ['self', 'update dataplugin', 'delete dataplugin', 'workspace'], refused: ['member', 'outsider'] },
  // To the outsider, who administers another workspace, the id is free: they may create a plugin there.
  // The member sees the plugin but is offered nothing on it, so is refused (403).
  globalDataPluginOrDraft: {
    admins: ['self', 'update dataplugin', 'delete dataplugin', 'workspace'],
    refused: ['member', 'outsider'],
    draft: { outsider: ['create dataplugin'] },
  },
  // Spec 002: members read, like and reply to comments; the author edits and deletes their own;
  // admins delete any. Assumes the owner's top-level comment, comments not read-only.
  comment: { all: ['self', 'history', 'like comment', 'comments', 'new comment'], admins: ['delete comment'], only: { owner: ['update comment'] } },
  // A subscription is its person's alone. Assumes the owner's.
  subscription: { only: { owner: ['self', 'update subscription', 'delete subscription'] }, refused: ['editor', 'member', 'outsider'] },
  // Every member reads a dataset's alerts.
  alert: { all: ['self'] },
  // Members see one another. Assumes the owner's membership: an owner is an administrator for
  // good and is removed by nobody, so no role is offered the admin toggle or removal.
  member: { all: ['self'] },
  // Files of the workspace: every member downloads them; admins replace and delete them.
  workspaceResource: { all: ['self'], admins: ['update resource', 'delete resource'] },
  workspaceResourceOrDraft: { all: ['self'], admins: ['update resource', 'delete resource'] },
};

function expected(rule: Rule, role: Role, extra: 'view' | 'offer'): Expected {
  const draft = extra === 'offer' ? (rule.draft?.[role] ?? []) : [];
  if ((rule.refused ?? ['outsider']).includes(role)) return draft.length > 0 ? new Set(draft) : 'refused';
  return new Set([...(rule.all ?? []), ...(ADMINS.includes(role) ? (rule.admins ?? []) : []), ...(rule.only?.[role] ?? []), ...draft]);
}

/** The `_links` keys `role` sees on `kind`'s own view (fixtures.ts SELF_URL), or 'refused'. */
export function viewOf(kind: ResourceKind, role: Role): Expected {
  return expected(RULES[kind], role, 'view');
}

/** The relations `role` may use on `kind` at the fixture's id: the view's, and for a draft kind what a free id offers. */
export function offerOf(kind: ResourceKind, role: Role): Expected {
  return expected(RULES[kind], role, 'offer');
}

/** Every relation the table names for a kind, for any role: a route guarded by another is unreviewed. */
export function reviewedRels(kind: ResourceKind): ReadonlySet<string> {
  const rule = RULES[kind];
  return new Set([
    ...(rule.all ?? []),
    ...(rule.admins ?? []),
    ...Object.values(rule.only ?? {}).flat(),
    ...Object.values(rule.draft ?? {}).flat(),
    ...(UNOFFERED[kind] ?? []),
  ]);
}

/**
 * Relations a kind has routes for that no role is offered in the fixture's state — reviewed, and
 * each one checked refused to every role. The state that would offer them is named.
 */
const UNOFFERED: Partial<Record<ResourceKind, readonly string[]>> = {
  // while the caller watches it
  dataset: ['delete subscription', 'alert rules', 'update alert rules', 'lineage'],
  channel: ['delete subscription', 'delete channel', 'add workspace-scope', 'withdraw workspace-scope'],
  // to the invitee (accept), and after acceptance (the admin toggle)
  invitation: ['accept invitation', 'add administrator', 'withdraw administrator'],
  // while a job runs
  job: ['withdraw job'],
  pipeline: ['delete subscription', 'create pipeline'],
  // a checked (READY) store that is not the default
  dataStore: ['make-default'],
  // a plugin not installed / an installed one no component uses
  dataPlugin: ['add dataplugin', 'delete dataplugin'],
  // a plain member's or an editor's membership (the fixture's is the owner's)
  member: ['add administrator', 'withdraw administrator', 'delete member'],
  workspaceOrDraft: [],
  workspaceResourceOrDraft: ['create resource'],
  globalDataPluginOrDraft: [],
};
