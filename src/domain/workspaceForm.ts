import { allowsGithubInstallation, allowsSshKey, isRemoteGitUrl } from './workspaceRepository';
import type { Workspace } from './resources';

// The workspace form (spec 001 §2 'Workspace create and settings', §5 'Workspace form', §7, §8):
// its texts, how approved domains are typed and shown, and the body a save sends.

export const WORKSPACE_TEXTS = {
  newTitle: 'New Workspace',
  settingsTitle: 'Workspace Settings',
  created: 'Workspace created successfully!',
  confirmDelete: 'Remove this workspace...',
  unexpected: 'An unexpected error occurred',
  domainsPlaceholder: 'e.g. @company.co.uk',
  deployStarted: 'Deployment started: its status and log are under Repository.',
} as const;

/** Spec §9: after create or delete the user moves on after 1 s. */
export const WORKSPACE_REDIRECT_MS = 1000;
/** Spec §9: the workspace snackbar uses APP_SNACKBAR_TIMEOUT; this when it is unset or no number. */
export const DEFAULT_SNACKBAR_MS = 6000;

/** The field errors the form shows beside their fields (spec §5); any other error is a banner. */
export const WORKSPACE_FIELD_ERRORS = ['name', 'domains', 'setRepositoryUrl'] as const;

export interface AppProperty {
  readonly key: string;
  readonly value: string;
}

export interface WorkspaceFormFields {
  readonly name: string;
  /** typed text: domains separated by commas or spaces, with or without '@' */
  readonly domains: string;
  readonly imageUrl: string | null;
  readonly defaultEnvironment: string;
  readonly repositoryUrl: string;
  readonly repositoryBranch: string;
  /** typed only: the stored key is never sent back */
  readonly sshPrivateKey: string;
  readonly githubInstallationId: string;
  readonly appProperties: readonly AppProperty[];
}

/** '@a.com, b.org' → ['a.com', 'b.org']: stored without '@'. */
export function parseDomains(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((d) => d.trim().replace(/^@+/, '')).filter((d) => d !== ''))];
}

/** ['a.com'] → '@a.com': shown with one. */
export function showDomains(domains: readonly string[] | null | undefined): string {
  return (domains ?? []).map((d) => `@${d.replace(/^@+/, '')}`).join(', ');
}

export function fieldsOf(workspace: Workspace | null): WorkspaceFormFields {
  return {
    name: workspace?.name ?? '',
    domains: showDomains(workspace?.domains),
    imageUrl: workspace?.imageUrl ?? null,
    defaultEnvironment: workspace?.defaultEnvironment ?? '',
    repositoryUrl: workspace?.repositoryUrl ?? '',
    repositoryBranch: workspace?.repositoryBranch ?? '',
    sshPrivateKey: '',
    githubInstallationId: workspace?.githubInstallationId ?? '',
    appProperties: Object.entries(workspace?.appProperties ?? {}).map(([key, value]) => ({ key, value })),
  };
}

/** Which repository fields the URL enables (spec §5). */
export function repositoryFieldsEnabled(url: string): { branch: boolean; sshKey: boolean; githubInstallation: boolean } {
  return { branch: isRemoteGitUrl(url), sshKey: allowsSshKey(url), githubInstallation: allowsGithubInstallation(url) };
}

/**
 * The PUT body (spec §7): every field; defaultEnvironment null when empty; the branch only for a
 * remote git URL; the SSH key only when typed; app properties without blank keys (the last of a
 * repeated key wins).
 */
export function saveBody(fields: WorkspaceFormFields): Record<string, unknown> {
  const url = fields.repositoryUrl.trim();
  const enabled = repositoryFieldsEnabled(url);
  const properties: Record<string, string> = {};
  for (const { key, value } of fields.appProperties) if (key.trim() !== '') properties[key.trim()] = value;
  return {
    name: fields.name.trim(),
    domains: parseDomains(fields.domains),
    imageUrl: fields.imageUrl,
    defaultEnvironment: fields.defaultEnvironment.trim() === '' ? null : fields.defaultEnvironment.trim(),
    repositoryUrl: url === '' ? null : url,
    repositoryBranch: enabled.branch ? fields.repositoryBranch.trim() || 'main' : null,
    ...(enabled.sshKey && fields.sshPrivateKey.trim() !== '' ? { sshPrivateKey: fields.sshPrivateKey } : {}),
    githubInstallationId: enabled.githubInstallation && fields.githubInstallationId.trim() !== '' ? fields.githubInstallationId.trim() : null,
    appProperties: properties,
  };
}

/** The snackbar's duration: the workspace's APP_SNACKBAR_TIMEOUT (ms) when it is a positive number. */
export function snackbarMs(workspace: Workspace | null): number {
  const value = Number(workspace?.appProperties?.APP_SNACKBAR_TIMEOUT);
  return Number.isFinite(value) && value > 0 ? Math.min(value, 60_000) : DEFAULT_SNACKBAR_MS;
}
