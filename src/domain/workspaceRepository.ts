// A workspace's repository settings (spec 001 §5 Workspace form): which fields apply to which
// URL, and what the server accepts. Shared by the settings page (enabling fields) and the server
// (validating them), so both read a URL the same way.

/** The hosts whose repositories are remote git repositories even without a trailing '.git'. */
const GIT_HOSTS = ['github.com', 'gitlab.com'] as const;
const GITHUB_HOST = 'github.com';
export const DEFAULT_BRANCH = 'main';
const MAX_URL = 2000;

type RepositoryKind = 'https' | 'ssh' | 'local';

interface RepositoryUrl {
  kind: RepositoryKind;
  /** lower-case host of a remote URL; undefined for a local path */
  host: string | undefined;
}

// scp-like SSH form: git@host:owner/repo(.git)
const SCP_FORM = /^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):(?!\/\/)[^\s]+$/;

/** How a repository URL reads, or undefined when it is none we can fetch. */
export function parseRepositoryUrl(text: string): RepositoryUrl | undefined {
  const url = text.trim();
  // A leading '-' would reach git as an option; control characters and spaces have no place in a URL.
  if (url === '' || url.length > MAX_URL || url.startsWith('-') || /[\s\u0000-\u001f\u007f]/.test(url)) return undefined;
  const scp = SCP_FORM.exec(url);
  if (scp) return { kind: 'ssh', host: scp[1]!.toLowerCase() };
  if (url.startsWith('/')) return url.split('/').includes('..') ? undefined : { kind: 'local', host: undefined };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.hostname === '' || parsed.pathname.length <= 1) return undefined;
  if (parsed.protocol === 'https:') return { kind: 'https', host: parsed.hostname.toLowerCase() };
  if (parsed.protocol === 'ssh:') return { kind: 'ssh', host: parsed.hostname.toLowerCase() };
  return undefined;
}

/** A remote git repository: a URL ending in .git, or one on a known git host (the branch field is editable). */
export function isRemoteGitUrl(text: string | null | undefined): boolean {
  if (!text) return false;
  const parsed = parseRepositoryUrl(text);
  if (!parsed || parsed.kind === 'local') return false;
  return text.trim().replace(/\/+$/, '').endsWith('.git') || (GIT_HOSTS as readonly string[]).includes(parsed.host ?? '');
}

/** The SSH private key applies to git@ URLs only. */
export function allowsSshKey(text: string | null | undefined): boolean {
  return Boolean(text?.trim().startsWith('git@'));
}

/** The GitHub installation id applies to repositories on GitHub only. */
export function allowsGithubInstallation(text: string | null | undefined): boolean {
  if (!text) return false;
  return parseRepositoryUrl(text)?.host === GITHUB_HOST;
}

/** Git's own rules for a branch name, kept to what a settings form can reasonably hold. */
export function isBranchName(text: string): boolean {
  if (text.length === 0 || text.length > 200) return false;
  if (!/^[A-Za-z0-9._/-]+$/.test(text)) return false;
  if (text.startsWith('-') || text.startsWith('/') || text.endsWith('/') || text.endsWith('.')) return false;
  // git check-ref-format: no slash-separated part begins with a dot or ends with '.lock'
  return !text.includes('..') && !text.includes('//') && !text.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock'));
}
