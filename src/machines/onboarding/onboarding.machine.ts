import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasLink } from '../../domain/hal';
import { isActiveJob } from '../../domain/jobs';
import { firstChartPath, pipelineTablesPath, tablesLoadedBy } from '../../domain/loadedData';
import { canSetUp, importStepFor, labPath, nameOf, ONBOARDING_POLL_MS, ONBOARDING_SEARCH_DEBOUNCE_MS, ONBOARDING_TEXTS, setupPath, skipPath, workspaceHomePath } from '../../domain/onboarding';
import { serverErrorsOf } from '../../domain/pipelineForm';
import { REL } from '../../domain/relations';
import type { DataPlugin, Job, Pipeline, StoreTable, Workspace } from '../../domain/resources';
import type { SetupStep } from '../../domain/routes';
import { apiErrorOf, shellErrorMessage } from '../apiError';
import { latestJobOf, ROW_POLL_MS } from '../jobRun/jobRun.machine';
import { notProvided, notProvidedActor } from '../notProvided';

// Onboarding (spec 001 §2, §4), one machine for the three steps of /setup/{step}/{workspaceId}:
// - w: a name; id 'new' creates the workspace (initialise, then create), another id renames it;
//   saving sets the profile's defaultWorkspace and moves to step 2. A workspace that cannot be
//   loaded sends the user to /setup/w/new.
// - imports: while the workspace is not READY, 'please wait' and a re-read every 5 s; a READY
//   non-managed one skips to step 3; otherwise choose a plugin and save a pipeline (a 400 stays).
//   The search narrows as it is typed (issue 38): 300 ms after the last letter the catalogue is
//   asked again, and the list shown meanwhile is the one being replaced (the view shows it busy).
// - firstRun (issue 20): the saved pipeline's first job starts at once through its 'create job'
//   link and is watched as a pipeline row watches its job (jobRun's calls, its 5 s re-read of the
//   pipeline) to its end; Continue moves to step 3 whenever it is pressed. No link, a refused start
//   or a failed run each say why and still continue: the pipeline is saved whatever the run does.
//   A completed run reads the store's tables (the workspace's 'tables' link) to offer the table it
//   loaded: 'View tables' and 'Build your first chart' (issue 38).
// - tasks: the setup-task cards; 'Go to Lab'.
// A member (the workspace offers no Lab links) is sent to the workspace's home from any step.
// Moving between steps is the `goTo` action (the router); the page then starts the next step.

export type OnboardingInput = { readonly step: SetupStep; readonly workspaceId: string };
export type FormErrors = { readonly banner: string | null; readonly fields: Readonly<Record<string, string>> };
export type OnboardingContext = {
  readonly step: SetupStep;
  readonly workspaceId: string;
  readonly workspace: Workspace | null;
  readonly name: string;
  readonly plugins: readonly DataPlugin[] | null;
  /** the last page of plugins read (0-based), and whether the catalogue has another */
  readonly pluginsPage: number;
  readonly morePlugins: boolean;
  readonly search: string;
  readonly plugin: DataPlugin | null;
  readonly errors: FormErrors;
  /** the pipeline saved in step 2, and its first run as last read */
  readonly pipeline: Pipeline | null;
  readonly job: Job | null;
  /** why the first run could not start */
  readonly runError: string | null;
  /** the tables the completed first run loaded, biggest first; null until read */
  readonly loadedTables: readonly StoreTable[] | null;
};
export type OnboardingEvent =
  | { readonly type: 'user.name'; readonly value: string }
  | { readonly type: 'user.submit' }
  | { readonly type: 'user.search'; readonly value: string }
  | { readonly type: 'user.more' }
  | { readonly type: 'user.choose'; readonly plugin: DataPlugin }
  | { readonly type: 'user.skip' }
  | { readonly type: 'user.goToLab' }
  | { readonly type: 'user.retry' }
  | { readonly type: 'user.continue' };

export type WorkspaceIdInput = { readonly workspaceId: string };
export type SaveWorkspaceInput = { readonly workspace: Workspace | null; readonly name: string };
export type PluginsInput = { readonly workspace: Workspace; readonly search: string; readonly page: number };
export type PluginsPage = { readonly plugins: readonly DataPlugin[]; readonly hasMore: boolean };
export type PipelineInput = { readonly workspace: Workspace; readonly plugin: DataPlugin; readonly name: string };
export type RunInput = { readonly pipeline: Pipeline };
export type TablesInput = { readonly workspace: Workspace };

const NO_ERRORS: FormErrors = { banner: null, fields: {} };

/** A re-read pipeline, and its latest job (the one started, or its retry) when it lists one. */
function runRead(context: OnboardingContext, pipeline: Pipeline): Partial<OnboardingContext> {
  return { pipeline, job: latestJobOf(pipeline) ?? context.job };
}

/** Still to end: queued, running, or not yet listed as the pipeline's latest job. */
function isRunGoing(job: Job | null): boolean {
  return job === null || isActiveJob(job);
}

/** A 400 keeps its field errors and first message; anything else is a banner. */
function errorsOf(error: unknown): FormErrors {
  const apiError = apiErrorOf(error);
  if (apiError.kind === 'response' && apiError.status === 400) {
    const server = serverErrorsOf(apiError.body ?? null);
    return { banner: server.banner ?? apiError.message, fields: server.fields };
  }
  if (apiError.kind === 'response' && apiError.body?.message) return { banner: apiError.body.message, fields: {} };
  return { banner: shellErrorMessage(apiError), fields: {} };
}

/** Typing in the search: the new text is kept, and the catalogue asked once typing rests. */
const SEARCH = { guard: 'searchChanged', target: 'searching', actions: 'keepSearch' } as const;

export const onboardingMachine = setup({
  types: { context: {} as OnboardingContext, events: {} as OnboardingEvent, input: {} as OnboardingInput },
  actors: {
    loadWorkspace: notProvidedActor<Workspace, WorkspaceIdInput>('loadWorkspace'),
    saveWorkspace: notProvidedActor<Workspace, SaveWorkspaceInput>('saveWorkspace'),
    setDefaultWorkspace: notProvidedActor<unknown, WorkspaceIdInput>('setDefaultWorkspace'),
    listPlugins: notProvidedActor<PluginsPage, PluginsInput>('listPlugins'),
    createPipeline: notProvidedActor<Pipeline, PipelineInput>('createPipeline'),
    // jobRun's own actors (onboarding.actors.ts): POST 'create job', re-read the pipeline.
    startRun: notProvidedActor<Job | undefined, RunInput>('startRun'),
    readRun: notProvidedActor<Pipeline, RunInput>('readRun'),
    // the store browser's call: the workspace's 'tables' link
    listTables: notProvidedActor<StoreTable[], TablesInput>('listTables'),
  },
  actions: {
    keepSearch: assign({ search: ({ context, event }) => (event.type === 'user.search' ? event.value : context.search) }),
    // The router (machines.ts); `reload` re-reads the session so a new workspace is known.
    goTo: (_, _params: { path: string; reload: boolean }) => notProvided('goTo')(),
  },
  delays: { readinessPoll: ONBOARDING_POLL_MS, runPoll: ROW_POLL_MS, searchDelay: ONBOARDING_SEARCH_DEBOUNCE_MS },
  guards: {
    isNew: ({ context }) => context.step === 'w' && context.workspaceId === 'new',
    isMembersOnly: ({ context }) => context.workspace !== null && !canSetUp(context.workspace),
    isWorkspaceStep: ({ context }) => context.step === 'w',
    isImportStep: ({ context }) => context.step === 'imports',
    hasName: ({ context }) => nameOf(context.name) !== undefined,
    waits: ({ context }) => context.workspace !== null && importStepFor(context.workspace) === 'wait',
    skips: ({ context }) => context.workspace !== null && importStepFor(context.workspace) === 'skip',
    canRun: ({ context }) => context.pipeline !== null && hasLink(context.pipeline, REL.createJob),
    searchChanged: ({ context, event }) => event.type === 'user.search' && event.value !== context.search,
    offersTables: ({ context }) => context.workspace !== null && hasLink(context.workspace, REL.tables),
  },
}).createMachine({
  id: 'onboarding',
  context: ({ input }) => ({ step: input.step, workspaceId: input.workspaceId, workspace: null, name: '', plugins: null, pluginsPage: 0, morePlugins: false, search: '', plugin: null, errors: NO_ERRORS, pipeline: null, job: null, runError: null, loadedTables: null }),
  initial: 'starting',
  states: {
    starting: { always: [{ guard: 'isNew', target: 'naming' }, { target: 'loading' }] },
    loading: {
      invoke: {
        id: 'loadWorkspace',
        src: 'loadWorkspace',
        input: ({ context }) => ({ workspaceId: context.workspaceId }),
        onDone: { target: 'loaded', actions: assign({ workspace: ({ event }) => event.output, name: ({ context, event }) => (context.step === 'w' ? event.output.name : context.name) }) },
        // Spec §6: a workspace that cannot be loaded falls back to a new one.
        onError: { target: 'left', actions: { type: 'goTo', params: { path: setupPath('w', 'new'), reload: false } } },
      },
    },
    loaded: {
      always: [
        // a member cannot use any step: the workspace itself is the useful place
        { guard: 'isMembersOnly', target: 'left', actions: { type: 'goTo', params: ({ context }) => ({ path: workspaceHomePath(context.workspaceId), reload: false }) } },
        { guard: 'isWorkspaceStep', target: 'naming' },
        { guard: 'isImportStep', target: 'importing' },
        { target: 'tasks' },
      ],
    },
    naming: {
      on: {
        'user.name': { actions: assign({ name: ({ event }) => event.value, errors: NO_ERRORS }) },
        'user.submit': [
          { guard: 'hasName', target: 'savingWorkspace', actions: assign({ errors: NO_ERRORS }) },
          { actions: assign({ errors: { banner: null, fields: { name: ONBOARDING_TEXTS.nameRequired } } }) },
        ],
      },
    },
    savingWorkspace: {
      invoke: {
        id: 'saveWorkspace',
        src: 'saveWorkspace',
        input: ({ context }) => ({ workspace: context.workspace, name: nameOf(context.name) ?? '' }),
        onDone: { target: 'settingDefault', actions: assign({ workspace: ({ event }) => event.output, workspaceId: ({ event }) => event.output.id }) },
        onError: { target: 'naming', actions: assign({ errors: ({ event }) => errorsOf(event.error) }) },
      },
    },
    settingDefault: {
      invoke: {
        id: 'setDefaultWorkspace',
        src: 'setDefaultWorkspace',
        input: ({ context }) => ({ workspaceId: context.workspaceId }),
        onDone: { target: 'left', actions: { type: 'goTo', params: ({ context }) => ({ path: setupPath('imports', context.workspaceId), reload: false }) } },
        onError: { target: 'naming', actions: assign({ errors: ({ event }) => errorsOf(event.error) }) },
      },
    },
    importing: {
      initial: 'deciding',
      on: { 'user.skip': { target: 'left', actions: { type: 'goTo', params: ({ context }) => ({ path: skipPath(context.workspaceId), reload: false }) } } },
      states: {
        deciding: {
          always: [
            { guard: 'waits', target: 'waiting' },
            { guard: 'skips', target: '#onboarding.left', actions: { type: 'goTo', params: ({ context }) => ({ path: setupPath('tasks', context.workspaceId), reload: false }) } },
            { target: 'listing' },
          ],
        },
        // 'please wait': the workspace is re-read every 5 s until READY.
        waiting: { after: { readinessPoll: 'polling' } },
        polling: {
          invoke: {
            id: 'loadWorkspace',
            src: 'loadWorkspace',
            input: ({ context }) => ({ workspaceId: context.workspaceId }),
            onDone: { target: 'deciding', actions: assign({ workspace: ({ event }) => event.output }) },
            onError: { target: 'waiting' },
          },
        },
        // typing: the catalogue is asked once the text has rested for 300 ms; each letter restarts the wait
        searching: {
          on: { 'user.search': { ...SEARCH, reenter: true } },
          after: { searchDelay: 'listing' },
        },
        listing: {
          // a letter typed while the list is read: that answer is stale, and not waited for
          on: { 'user.search': SEARCH },
          invoke: {
            id: 'listPlugins',
            src: 'listPlugins',
            input: ({ context }) => ({ workspace: context.workspace!, search: context.search, page: 0 }),
            onDone: { target: 'choosing', actions: assign({ plugins: ({ event }) => event.output.plugins, pluginsPage: 0, morePlugins: ({ event }) => event.output.hasMore }) },
            onError: { target: 'failed', actions: assign({ errors: ({ event }) => errorsOf(event.error) }) },
          },
        },
        // The catalogue's next page (10 a time, spec §4), added below those shown; the choice stays.
        listingMore: {
          on: { 'user.search': SEARCH },
          invoke: {
            id: 'listMorePlugins',
            src: 'listPlugins',
            input: ({ context }) => ({ workspace: context.workspace!, search: context.search, page: context.pluginsPage + 1 }),
            onDone: {
              target: 'choosing',
              actions: assign({
                plugins: ({ context, event }) => [...(context.plugins ?? []), ...event.output.plugins.filter((p) => !(context.plugins ?? []).some((q) => q.id === p.id))],
                pluginsPage: ({ context }) => context.pluginsPage + 1,
                morePlugins: ({ event }) => event.output.hasMore,
              }),
            },
            onError: { target: 'choosing', actions: assign({ errors: ({ event }) => errorsOf(event.error) }) },
          },
        },
        failed: { on: { 'user.retry': { target: 'listing', actions: assign({ errors: NO_ERRORS }) }, 'user.search': { ...SEARCH, actions: ['keepSearch', assign({ errors: NO_ERRORS })] } } },
        choosing: {
          on: {
            'user.search': SEARCH,
            'user.more': { guard: ({ context }) => context.morePlugins, target: 'listingMore', actions: assign({ errors: NO_ERRORS }) },
            'user.choose': { actions: assign({ plugin: ({ event }) => event.plugin, name: ({ event }) => event.plugin.label ?? event.plugin.name, errors: NO_ERRORS }) },
            'user.name': { actions: assign({ name: ({ event }) => event.value }) },
            'user.submit': [
              { guard: ({ context }) => context.plugin !== null && nameOf(context.name) !== undefined, target: 'saving', actions: assign({ errors: NO_ERRORS }) },
              { actions: assign({ errors: { banner: null, fields: { name: ONBOARDING_TEXTS.nameRequired } } }) },
            ],
          },
        },
        saving: {
          invoke: {
            id: 'createPipeline',
            src: 'createPipeline',
            input: ({ context }) => ({ workspace: context.workspace!, plugin: context.plugin!, name: nameOf(context.name) ?? '' }),
            onDone: { target: '#onboarding.firstRun', actions: assign({ pipeline: ({ event }) => event.output }) },
            // Spec §4: a 400 keeps the user on the form with its errors.
            onError: { target: 'choosing', actions: assign({ errors: ({ event }) => errorsOf(event.error) }) },
          },
        },
      },
    },
    // Step 2's pipeline is saved; Skip no longer applies, Continue always leads on to step 3.
    firstRun: {
      initial: 'deciding',
      on: { 'user.continue': { target: 'left', actions: { type: 'goTo', params: ({ context }) => ({ path: setupPath('tasks', context.workspaceId), reload: false }) } } },
      states: {
        // Only a pipeline the server offers to run is started (an incomplete one has no 'create job').
        deciding: { always: [{ guard: 'canRun', target: 'starting' }, { target: 'notOffered' }] },
        notOffered: {},
        starting: {
          invoke: {
            id: 'startRun',
            src: 'startRun',
            input: ({ context }) => ({ pipeline: context.pipeline! }),
            onDone: { target: 'active', actions: assign({ job: ({ event }) => event.output ?? null }) },
            onError: { target: 'refused', actions: assign({ runError: ({ event }) => errorsOf(event.error).banner }) },
          },
        },
        refused: {},
        // queued or running: the pipeline (and so its latest job) is re-read every 5 s, as a row does
        active: { after: { runPoll: 'polling' } },
        polling: {
          invoke: {
            id: 'readRun',
            src: 'readRun',
            input: ({ context }) => ({ pipeline: context.pipeline! }),
            onDone: [
              // a retry of a failed attempt is the latest job and still active, so it is followed too
              { guard: ({ event }) => isRunGoing(latestJobOf(event.output)), target: 'active', actions: assign(({ context, event }) => runRead(context, event.output)) },
              { guard: ({ event }) => latestJobOf(event.output)?.status === 'COMPLETE', target: 'succeeded', actions: assign(({ context, event }) => runRead(context, event.output)) },
              { target: 'failed', actions: assign(({ context, event }) => runRead(context, event.output)) },
            ],
            // A missed re-read is tried again at the next interval; the step keeps what it showed.
            onError: 'active',
          },
        },
        // what it loaded: the store's tables are read once, to offer the biggest one it loaded
        succeeded: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'offersTables', target: 'readingTables' }, { target: 'shown' }] },
            readingTables: {
              invoke: {
                id: 'listTables',
                src: 'listTables',
                input: ({ context }) => ({ workspace: context.workspace! }),
                onDone: {
                  target: 'shown',
                  actions: assign({
                    loadedTables: ({ context, event }) => (context.pipeline?.id ? tablesLoadedBy(event.output, { pipelineId: context.pipeline.id, jobId: context.job?.id ?? null }) : []),
                  }),
                },
                // the run is still complete: the step only offers less
                onError: { target: 'shown', actions: assign({ loadedTables: [] }) },
              },
            },
            shown: {},
          },
        },
        failed: {},
      },
    },
    tasks: {
      on: { 'user.goToLab': { target: 'left', actions: { type: 'goTo', params: ({ context }) => ({ path: labPath(context.workspaceId), reload: true }) } } },
    },
    left: { type: 'final' },
  },
});

export type OnboardingSnapshot = SnapshotFrom<typeof onboardingMachine>;

export const selectPleaseWait = (s: OnboardingSnapshot): boolean => s.matches({ importing: 'waiting' }) || s.matches({ importing: 'polling' }) || s.matches({ importing: 'deciding' });
export type FirstRunPhase = 'starting' | 'active' | 'succeeded' | 'failed' | 'notOffered' | 'refused';
/** Where the first run is, or null outside it. */
export const selectFirstRun = (s: OnboardingSnapshot): FirstRunPhase | null => {
  if (!s.matches('firstRun')) return null;
  if (s.matches({ firstRun: 'polling' })) return 'active';
  for (const phase of ['starting', 'active', 'succeeded', 'failed', 'notOffered', 'refused'] as const) if (s.matches({ firstRun: phase })) return phase;
  return 'starting';
};
export const selectBusy = (s: OnboardingSnapshot): boolean => s.matches('savingWorkspace') || s.matches('settingDefault') || s.matches({ importing: 'saving' }) || s.matches('loading');

/** The state of step 2's plugin list: shown, or being replaced after the search changed. */
export const selectSearching = (s: OnboardingSnapshot): boolean => s.matches({ importing: 'searching' }) || s.matches({ importing: 'listing' });

export type FirstRunLinks = { readonly table: string | null; readonly tablesPath: string | null; readonly chartPath: string | null };
/**
 * Where a completed first run leads (issue 38): the store's tables with the run's biggest table
 * open, and the dataset editor on that table when the workspace offers 'publish dataset'.
 */
export const selectFirstRunLinks = (s: OnboardingSnapshot): FirstRunLinks => {
  const { pipeline, workspace, workspaceId, loadedTables } = s.context;
  if (!s.matches({ firstRun: { succeeded: 'shown' } }) || pipeline === null) return { table: null, tablesPath: null, chartPath: null };
  const table = loadedTables?.[0]?.name ?? null;
  return {
    table,
    tablesPath: pipelineTablesPath(workspaceId, pipeline, table),
    chartPath: table !== null && workspace !== null && hasLink(workspace, REL.publishDataset) ? firstChartPath(workspaceId, table) : null,
  };
};
