import { hasLink, type HalLike } from './hal';
import { REL } from './relations';
import { pathTo, type SetupStep } from './routes';

// Onboarding (spec 001 §2, §4): three steps — w (workspace), imports (first pipeline), tasks.

export const ONBOARDING_POLL_MS = 5_000;
/** Spec §9: the onboarding plugin list is read 10 at a time. */
export const ONBOARDING_PLUGINS_PAGE_SIZE = 10;
/** How long typing in step 2's search rests before the catalogue is asked (issue 38: it narrows as letters are typed). */
export const ONBOARDING_SEARCH_DEBOUNCE_MS = 300;
const WORKSPACE_READY = 'READY';
/** Where every onboarding pipeline loads: the workspace's own default store. */
export const ONBOARDING_LOADER = 'loaders/target-store';

export const ONBOARDING_TEXTS = {
  stepTitles: { w: 'Name your workspace', imports: 'Import your data', tasks: 'Set up your workspace' } satisfies Record<SetupStep, string>,
  wait: 'Please wait while we get your workspace ready…',
  nameRequired: 'Name is required',
} as const;

type ImportStep = 'wait' | 'skip' | 'choose';

/**
 * Step 2 for a loaded workspace: wait (polling) while it is not READY; a READY workspace that is
 * not managed skips to step 3; a READY managed one (or one that does not say) chooses a plugin.
 */
export function importStepFor(workspace: { readonly status?: string | null | undefined; readonly managed?: boolean | null | undefined }): ImportStep {
  if (workspace.status !== WORKSPACE_READY) return 'wait';
  return workspace.managed === false ? 'skip' : 'choose';
}

export const setupPath = (step: SetupStep, workspaceId: string): string => pathTo('setup', { step, workspaceId });

/** Skip goes to step 3; 'Go to Lab' to the workspace's pipelines. */
export const skipPath = (workspaceId: string): string => setupPath('tasks', workspaceId);
export const labPath = (workspaceId: string): string => pathTo('pipelines', { workspaceId });

/**
 * Onboarding sets a workspace up: naming it, its first pipeline, its setup tasks, all an admin's
 * (the workspace offers them by its Lab links). A member who opens a setup URL of an existing
 * workspace is sent to the workspace itself instead of steps they cannot use.
 */
export function canSetUp(workspace: HalLike): boolean {
  return hasLink(workspace, REL.newPipeline);
}
export const workspaceHomePath = (workspaceId: string): string => pathTo('workspaceLanding', { workspaceId });

/** The name typed for a workspace or a pipeline: saved trimmed; blank is refused before any call. */
export function nameOf(typed: string): string | undefined {
  const trimmed = typed.trim();
  return trimmed === '' ? undefined : trimmed;
}
