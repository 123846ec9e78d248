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
// compile here until it is read too. The caller's columns are prefixed so that they can share a row
// with a read's own columns (readWithCaller).
const PROFILE_COLUMNS: Record<keyof ProfileRow, true> = {
  id: true,
  name: true,
  email: true,
  default_workspace_id: true,
  features_disabled: true,
  can_create_workspaces: true,
  created_at: true,
  updated_at: true,
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
const profileColumns = Object.keys(PROFILE_COLUMNS) as (keyof ProfileRow)[];
const workspaceColumns = Object.keys(WORKSPACE_COLUMNS) as (keyof WorkspaceRow)[];
const select = (alias: string, columns: readonly string[], prefix: string) => columns.map((c) => `${alias}.${c} AS ${prefix}${c}`).join(', ');
const PROFILE_SELECT = sql.raw(select('p', profileColumns, 'caller_'));
const WORKSPACE_SELECT = sql.raw(`, ${select('w', workspaceColumns, 'caller_w_')}, m.role AS caller_role`);
/**
 * The caller as readWithCaller selects it: the caller's columns as one JSON object, on one row of
 * the result only (see there). One field instead of forty: the drivers parse each field of every
 * row, nulls included (on PGlite, the caller's columns on a feed page of ten cost 110–160 µs).
 */
const CALLER_ONCE = sql.raw(`CASE WHEN row_number() OVER () = 1 THEN row_to_json(caller) END AS caller_once`);
/** JSON has no timestamps: these columns arrive as ISO text and are made the Dates a column read gives. */
const TIMESTAMP_COLUMNS = ['caller_created_at', 'caller_updated_at', 'caller_w_created_at', 'caller_w_updated_at'] as const satisfies readonly (
  | `caller_${keyof ProfileRow}`
  | `caller_w_${keyof WorkspaceRow}`
)[];
const fromJson = (json: CallerColumns): CallerColumns => {
  const row = { ...json };
  for (const column of TIMESTAMP_COLUMNS) if (typeof row[column] === 'string') row[column] = new Date(row[column]);
  return row;
};

/** A row with the caller's columns (and other columns of a read, which are not looked at here). */
type CallerColumns = Record<string, unknown>;
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

function callerOf(row: CallerColumns, withWorkspace: boolean): CallerRow {
  const profile = Object.fromEntries(profileColumns.map((c) => [c, row[`caller_${c}`]])) as unknown as ProfileRow;
  // the LEFT JOIN found no workspace: its columns are all null
  const workspace = () => (row.caller_w_id === null ? undefined : (Object.fromEntries(workspaceColumns.map((c) => [c, row[`caller_w_${c}`]])) as unknown as WorkspaceRow));
  return {
    profile,
    apiKeyId: (row.caller_api_key_id as string | null) ?? undefined,
    workspace: withWorkspace ? { row: workspace(), role: (row.caller_role as MemberRole | null) ?? undefined } : undefined,
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
export type CallerRead<A, R> = (db: Db, key: CallerKey, workspaceId: string | undefined, args: A) => Promise<WithCaller<R>>;

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
    return { caller: carrier && callerOf(fromJson(carrier), workspaceId !== undefined), rows: rows.filter((row) => row.id !== null) };
  };
}
