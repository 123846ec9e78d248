import { sql, type Compilable, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import { precompiled } from '../db/precompiled';
import type { MemberRole, WorkspacesTable } from '../db/schema';
import type { ProfileRow } from './profiles';

// (WorkspaceRow of ./workspaces, which imports this module)
type WorkspaceRow = Selectable<WorkspacesTable>;

/** Who acts, in one read: the profile, the API key a client token stands for, and optionally one workspace with the profile's role in it. */
export interface CallerRow {
  profile: ProfileRow;
  apiKeyId: string | undefined;
  /** present when a workspace was asked for: its row (undefined when there is none) and the profile's role there */
  workspace: { row: WorkspaceRow | undefined; role: MemberRole | undefined } | undefined;
}

export type CallerKey = { profileId: string } | { clientId: string };

// The columns read, as records over the row types: a new column of profiles or workspaces fails to
// compile here until it is read too.
const PROFILE_COLUMNS: Record<keyof ProfileRow, true> = {
  id: true,
  name: true,
  email: true,
  default_workspace_id: true,
  features_disabled: true,
  can_create_workspaces: true,
  created_at: true,
  updated_at: true,
  credentials_changed_at: true,
};
const WORKSPACE_COLUMNS: Record<keyof WorkspaceRow, true> = {
  id: true,
  name: true,
  image_url: true,
  default_environment: true,
  domains: true,
  app_properties: true,
  status: true,
  created_at: true,
  updated_at: true,
  repository_url: true,
  repository_branch: true,
  ssh_private_key: true,
  github_installation_id: true,
  deployment_secret: true,
  managed: true,
};
/**
 * A row as one JSON object of its columns. The caller's profile and workspace travel as JSON: the
 * driver's JSON parser builds each object whole, where forty prefixed columns had to be parsed one
 * by one and copied into objects (a tenth of the workspace list's own code, issue 21), and a read
 * that carries its caller (readWithCaller) passes them on as they are.
 */
const jsonObject = (alias: string, columns: Record<string, true>) => `json_build_object(${Object.keys(columns).map((c) => `'${c}', ${alias}.${c}`).join(', ')})`;
const PROFILE_SELECT = sql.raw(`p.id AS caller_id, ${jsonObject('p', PROFILE_COLUMNS)} AS caller_profile`);
// the LEFT JOIN found no workspace: null rather than an object of nulls
const WORKSPACE_SELECT = sql.raw(`, CASE WHEN w.id IS NULL THEN NULL ELSE ${jsonObject('w', WORKSPACE_COLUMNS)} END AS caller_workspace, m.role AS caller_role`);
/**
 * The caller as readWithCaller selects it: the caller's columns as one JSON object, on one row of
 * the result only (see there). One field instead of several: the drivers parse each field of every
 * row, nulls included.
 */
const CALLER_ONCE = sql.raw(`CASE WHEN row_number() OVER () = 1 THEN row_to_json(caller) END AS caller_once`);

/** The caller's statement's row (or readWithCaller's carried object, the same fields). */
interface CallerColumns {
  caller_id: string;
  caller_profile: JsonRow<ProfileRow>;
  caller_api_key_id: string | null;
  caller_workspace?: JsonRow<WorkspaceRow> | null;
  caller_role?: MemberRole | null;
}
/** A row as JSON gives it: its timestamps are ISO text. */
type JsonRow<R> = { [K in keyof R]: R[K] extends Date ? string : R[K] };
/** JSON has no timestamps: these arrive as ISO text and are made the Dates a column read gives. */
const withDates = <R extends { created_at: Date; updated_at: Date }>(row: JsonRow<R>): R =>
  Object.assign(row, { created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) }) as unknown as R;

/** A row of readWithCaller: the caller's columns as one object on one row, null on the others. */
type CallerOnce = { caller_once: CallerColumns | null };

type Shape = 'profile' | 'key' | 'profile+workspace' | 'key+workspace';
const shapeOf = (key: CallerKey, workspaceId: string | undefined): Shape => `${'clientId' in key ? 'key' : 'profile'}${workspaceId === undefined ? '' : '+workspace'}`;
const SHAPES: readonly Shape[] = ['profile', 'key', 'profile+workspace', 'key+workspace'];

/** named apart from any read's own arguments, which share the statement */
type CallerArgs = {
  callerSubject: string;
  callerWorkspaceId: string;
};

/**
 * The caller's statement: the profile a token acts for (a user token's subject, or the owner of the
 * API key a client token was issued for) and, for the `+workspace` shapes, that workspace and the
 * profile's role in it. Raw SQL because the builder cannot express the two starting points
 * (profile or key) with one optional join cheaply.
 */
function callerSelect(shape: Shape, p: CallerArgs): RawBuilder<CallerColumns> {
  const byKey = shape.startsWith('key');
  const withWorkspace = shape.endsWith('+workspace');
  const workspaceJoin = withWorkspace
    ? sql`LEFT JOIN workspaces w ON w.id = ${p.callerWorkspaceId}
        LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.profile_id = p.id`
    : sql``;
  const source = byKey
    ? sql`FROM api_keys k JOIN profiles p ON p.id = k.profile_id ${workspaceJoin} WHERE k.client_id = ${p.callerSubject}`
    : sql`FROM profiles p ${workspaceJoin} WHERE p.id = ${p.callerSubject}`;
  const apiKeyColumn = byKey ? sql`k.id AS caller_api_key_id` : sql`NULL::uuid AS caller_api_key_id`;
  return sql<CallerColumns>`SELECT ${PROFILE_SELECT}, ${apiKeyColumn} ${withWorkspace ? WORKSPACE_SELECT : sql``} ${source}`;
}

const argsOf = (key: CallerKey, workspaceId: string | undefined): CallerArgs => ({ callerSubject: 'clientId' in key ? key.clientId : key.profileId, callerWorkspaceId: workspaceId ?? '' });

/** The profile's own nullable timestamp, ISO text in JSON, as the Date (or null) a column read gives. */
function profileOf(json: JsonRow<ProfileRow>): ProfileRow {
  const changed = json.credentials_changed_at as unknown as string | null;
  return Object.assign(withDates<ProfileRow>(json), { credentials_changed_at: changed === null ? null : new Date(changed) });
}

function callerOf(row: CallerColumns, withWorkspace: boolean): CallerRow {
  const workspace = row.caller_workspace;
  return {
    profile: profileOf(row.caller_profile),
    apiKeyId: row.caller_api_key_id ?? undefined,
    workspace: withWorkspace ? { row: workspace ? withDates<WorkspaceRow>(workspace) : undefined, role: row.caller_role ?? undefined } : undefined,
  };
}

const CALLER_QUERIES = Object.fromEntries(SHAPES.map((shape) => [shape, precompiled((_db, p: CallerArgs) => callerSelect(shape, p))])) as Record<
  Shape,
  (db: Db, args: CallerArgs) => Promise<CallerColumns[]>
>;

/**
 * One round trip: the caller, and when `workspaceId` is given, that workspace and the caller's role
 * in it. Undefined when there is no such profile (or no such key).
 */
export async function findCaller(db: Db, key: CallerKey, workspaceId: string | undefined): Promise<CallerRow | undefined> {
  const row = (await CALLER_QUERIES[shapeOf(key, workspaceId)](db, argsOf(key, workspaceId)))[0];
  return row && callerOf(row, workspaceId !== undefined);
}

/** What a read carried with its caller: the caller (undefined when there is none) and the read's rows. */
export interface WithCaller<R> {
  caller: CallerRow | undefined;
  rows: R[];
}

/** A read that carries its caller (see readWithCaller). */
type CallerRead<A, R> = (db: Db, key: CallerKey, workspaceId: string | undefined, args: A) => Promise<WithCaller<R>>;

/**
 * A read made in the caller's own statement, so that a request makes one round trip instead of
 * two (the caller's, then the read's):
 *
 *     WITH caller AS (…) SELECT row_to_json(caller) AS caller_once, data.* FROM caller LEFT JOIN LATERAL (read) data ON true ORDER BY order
 *
 * except that the caller is filled on one row only (the others have null there): a page of rows
 * would otherwise bring the caller's profile and workspace, dates and JSON included, once per row,
 * for the driver to parse each time (a third of the feed's row parsing). The rows keep their
 * `caller_once` field, null but for one.
 * `read` gets the caller's profile id as an expression (`callerId`), so a read of the caller's own
 * things works for an API key, whose profile is only known in the database. A read of anything
 * else (a workspace's feed) is made whoever the caller is: the route's guard authorises the caller
 * afterwards, and a refused request drops the rows unseen. Rows come back in `order` (columns of
 * `data`), which must restate the read's own order. No caller, no rows; a read with no rows gives
 * one row without an `id`, dropped here.
 */
export function readWithCaller<A extends Record<string, unknown>, R extends { id: string }>(
  read: (db: Db, args: A, callerId: RawBuilder<string>) => Compilable<R>,
  order: RawBuilder<unknown>,
): CallerRead<A, R> {
  const queries = Object.fromEntries(
    SHAPES.map((shape) => [
      shape,
      precompiled(
        (db, p: A & CallerArgs) =>
          sql<CallerOnce & R>`WITH caller AS (${callerSelect(shape, p)})
            SELECT ${CALLER_ONCE}, data.* FROM caller LEFT JOIN LATERAL (${read(db, p, sql<string>`caller.caller_id`)}) AS data ON true
            ORDER BY ${order}`,
      ),
    ]),
  ) as Record<Shape, (db: Db, args: A & CallerArgs) => Promise<(CallerOnce & R)[]>>;
  return async (db, key, workspaceId, args) => {
    const rows = await queries[shapeOf(key, workspaceId)](db, { ...args, ...argsOf(key, workspaceId) });
    const carrier = rows.find((row) => row.caller_once !== null)?.caller_once ?? undefined;
    return { caller: carrier && callerOf(carrier, workspaceId !== undefined), rows: rows.filter((row) => row.id !== null) };
  };
}
