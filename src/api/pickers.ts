import { z } from 'zod';

// The setting editors' pickers (spec 001 §5, §7 'OAuth and pickers'): direct calls from the browser
// to the provider's own APIs with the source's access token — a drive's spreadsheet files (with a
// `q` search), analytics profiles, ads customers (with the developer-token header). A 401 means the
// access token expired: the refresh-token exchange runs once and the call is retried once. Their
// hosts are configuration (`/config.json` `pickers`), so tests point them at a local fake.

export interface PickerOption {
  readonly id: string;
  readonly name: string;
  readonly mimeType?: string;
}

interface PickerAuth {
  /** the access token in hand, or null to obtain one by refreshing */
  readonly accessToken: string | null;
  /** the refresh-token exchange (our server's /tokens/{provider}/token): a fresh access token */
  readonly refresh: () => Promise<string>;
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

export class PickerFailure extends Error {
  override readonly name = 'PickerFailure';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const SPREADSHEET_MIME = 'application/vnd.google-apps.spreadsheet';

/** The drive's `q` for spreadsheets whose name contains `search` ('\' and "'" escaped as the drive's query language wants). */
export function driveQuery(search: string): string {
  const term = search.trim().slice(0, 200).replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  const spreadsheets = `mimeType='${SPREADSHEET_MIME}' and trashed=false`;
  return term === '' ? spreadsheets : `${spreadsheets} and name contains '${term}'`;
}

async function authorisedGet(url: string, auth: PickerAuth, headers: Readonly<Record<string, string>> = {}): Promise<unknown> {
  const doFetch = auth.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  let token = auth.accessToken ?? (await auth.refresh());
  for (let attempt = 0; ; attempt++) {
    const response = await doFetch(url, { headers: { ...headers, authorization: `Bearer ${token}`, accept: 'application/json' }, ...(auth.signal ? { signal: auth.signal } : {}) });
    if (response.status === 401 && attempt === 0) {
      token = await auth.refresh();
      continue;
    }
    if (!response.ok) throw new PickerFailure(response.status, `The provider answered ${response.status}`);
    return response.json();
  }
}

const driveFilesSchema = z.object({ files: z.array(z.object({ id: z.string(), name: z.string(), mimeType: z.string().optional() })).default([]) });
const profilesSchema = z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })).default([]) });
const customersSchema = z.object({ resourceNames: z.array(z.string()).default([]) });

function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new PickerFailure(200, 'The provider answered in an unexpected shape');
  return result.data;
}

/** A drive's spreadsheet files, searched by name. */
export async function driveSpreadsheets(baseUrl: string, search: string, auth: PickerAuth): Promise<PickerOption[]> {
  const url = new URL(baseUrl);
  url.searchParams.set('q', driveQuery(search));
  url.searchParams.set('fields', 'files(id,name,mimeType)');
  url.searchParams.set('pageSize', '100');
  return parsed(driveFilesSchema, await authorisedGet(url.toString(), auth)).files.map((f) => ({ id: f.id, name: f.name, ...(f.mimeType ? { mimeType: f.mimeType } : {}) }));
}

/** The analytics profiles (views) the account can read. */
export async function analyticsProfiles(url: string, auth: PickerAuth): Promise<PickerOption[]> {
  return parsed(profilesSchema, await authorisedGet(url, auth)).items.map((p) => ({ id: p.id, name: p.name }));
}

/** The ads customers the account can reach; the developer token goes in its header. */
export async function adsCustomers(url: string, developerToken: string, auth: PickerAuth): Promise<PickerOption[]> {
  const body = parsed(customersSchema, await authorisedGet(url, auth, { 'developer-token': developerToken }));
  return body.resourceNames.map((name) => ({ id: name.replace(/^customers\//, ''), name }));
}
