import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import type { ApiError } from '../../api/errors';
import { scheduleChoiceOf, scheduleFor, type ScheduleChoice } from '../../domain/cronText';
import { hasLink, type HalLike } from '../../domain/hal';
import { cutOffChanges, hasDownstream, impactOf, mayCutOff, saveWarningTitle } from '../../domain/lineageImpact';
import type { PipelineLineage } from '../../domain/lineageResources';
import {
  actionsModeOf,
  canAutoSave,
  canSaveName,
  defaultPipelineName,
  keepCurrentProperties,
  nonNegativeInt,
  PIPELINE_FORM_TEXTS,
  saveRelOf,
  savesAsDraft,
  serverErrorsOf,
  type ActionsMode,
  type FormComponent,
  type SaveKind,
  triggerOptions,
  type TriggerOption,
} from '../../domain/pipelineForm';
import { REL } from '../../domain/relations';
import type { Pipeline, PipelineWrite, Setting } from '../../domain/resources';
import { sharedTablesField, TABLE_PREFIX_SETTING } from '../../domain/tableNamespace';
import { apiErrorOf, shellErrorMessage } from '../apiError';
import { notProvided, notProvidedActor } from '../notProvided';

// The pipeline edit page (/lab/{id}/pipelines/new and /{pipelineId}, spec 001 §2, §4, §5).
// Loading reads (or initialises) the pipeline, its components with their plugins' settings, and
// the workspace's other pipelines for triggers. Editing keeps the form's values; a change to the
// set of components saves a draft on its own; Save and Save as draft pick the link by §4 and
// go to the pipeline's detail route; a 400 becomes a red banner plus field errors. A save that
// renames the pipeline, changes its table prefix or deselects streams first reads its impact (its
// 'lineage' link) and, when datasets or dashboards read its tables, asks (issue 41): Save anyway
// saves, Keep editing keeps every value as it is.

/** A component with what its editors need from its plugin. */
export interface EditorComponent extends FormComponent {
  readonly description?: string | null | undefined;
  readonly settings: readonly Setting[];
}

export interface LoadedForm {
  readonly pipeline: Pipeline;
  readonly components: readonly EditorComponent[];
  readonly triggers: readonly { readonly id?: string | null | undefined; readonly name?: string | null | undefined }[];
}

export interface PipelineFormInput {
  readonly workspaceId: string;
  readonly workspace: HalLike;
  /** null on /pipelines/new */
  readonly pipelineId: string | null;
  /** ?dataplugin: a plugin to preselect */
  readonly dataPluginId: string | null;
  /** ?validate=true: save once on load to show validation */
  readonly validate: boolean;
}

export interface SavePipelineInput {
  readonly pipeline: HalLike;
  readonly rel: string;
  readonly body: PipelineWrite;
}

export type FormField = 'name' | 'script' | 'actions' | 'customCron' | 'timeout' | 'maxRetries';

export interface PipelineFormContext {
  readonly input: PipelineFormInput;
  readonly pipeline: Pipeline | null;
  readonly components: readonly EditorComponent[];
  readonly triggerOptions: readonly TriggerOption[];
  readonly name: string;
  /** the user typed a name: it no longer follows the first plugin */
  readonly nameTyped: boolean;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly actionsMode: ActionsMode;
  /** custom actions, one per line */
  readonly actions: string;
  readonly script: string;
  readonly scheduleChoice: ScheduleChoice;
  readonly customCron: string;
  readonly timeout: string;
  readonly maxRetries: string;
  readonly triggeredBy: readonly string[];
  readonly saveKind: SaveKind | 'validate';
  readonly banner: string | null;
  readonly fieldErrors: Readonly<Record<string, string>>;
  readonly loadError: string | null;
  /** the person confirmed loading into tables another pipeline loads (src/domain/tableNamespace.ts) */
  readonly shareTables: boolean;
  /** 'Save & run': the save is followed by a run of the saved pipeline */
  readonly runAfterSave: boolean;
  /** what the pipeline's runs feed, while the form asks whether to save a change that reaches it */
  readonly impact: PipelineLineage | null;
  /** what the save changes that reaches it, in words (domain/lineageImpact.ts cutOffChanges) */
  readonly cutOff: readonly string[];
}

export type PipelineFormEvent =
  | { readonly type: 'user.change'; readonly field: FormField; readonly value: string }
  | { readonly type: 'user.setProperty'; readonly key: string; readonly value: unknown }
  | { readonly type: 'user.actionsMode'; readonly mode: ActionsMode }
  | { readonly type: 'user.schedule'; readonly choice: ScheduleChoice }
  | { readonly type: 'user.triggers'; readonly names: readonly string[] }
  | { readonly type: 'user.addComponents'; readonly components: readonly EditorComponent[] }
  | { readonly type: 'user.removeComponent'; readonly name: string }
  | { readonly type: 'user.save' }
  | { readonly type: 'user.saveDraft' }
  | { readonly type: 'user.saveAndRun' }
  | { readonly type: 'user.close' }
  | { readonly type: 'user.retry' }
  | { readonly type: 'user.shareTables' }
  | { readonly type: 'user.keepTables' }
  | { readonly type: 'user.saveAnyway' }
  | { readonly type: 'user.keepEditing' };

const str = (value: string | number | null | undefined): string => (value === null || value === undefined ? '' : String(value));

function fromPipeline(pipeline: Pipeline): Pick<PipelineFormContext, 'name' | 'properties' | 'actionsMode' | 'actions' | 'script' | 'scheduleChoice' | 'customCron' | 'timeout' | 'maxRetries' | 'triggeredBy'> {
  const scheduleChoice = scheduleChoiceOf(pipeline.schedule);
  return {
    name: pipeline.name ?? '',
    properties: { ...(pipeline.properties ?? {}) },
    actionsMode: actionsModeOf(pipeline),
    actions: (pipeline.actions ?? []).join('\n'),
    script: pipeline.script ?? '',
    scheduleChoice,
    customCron: scheduleChoice === 'custom' ? str(pipeline.schedule) : '',
    // 0 is how the server stores 'the default of 300': the field shows the placeholder instead
    timeout: pipeline.timeout === 0 ? '' : str(pipeline.timeout),
    maxRetries: str(pipeline.maxRetries),
    triggeredBy: pipeline.triggeredBy ?? [],
  };
}

/** Field errors the form finds before it asks the server: the stored values must be buildable. */
export function localErrors(context: PipelineFormContext, kind: SaveKind | 'validate'): Record<string, string> {
  const errors: Record<string, string> = {};
  if (kind === 'save' && !canSaveName(context.name)) errors.name = PIPELINE_FORM_TEXTS.nameRequired;
  const schedule = scheduleFor(context.scheduleChoice, context.customCron);
  if (!schedule.ok) errors.schedule = schedule.message;
  const timeout = nonNegativeInt(context.timeout);
  if (!timeout.ok) errors.timeout = timeout.message;
  const retries = nonNegativeInt(context.maxRetries);
  if (!retries.ok) errors.maxRetries = retries.message;
  return errors;
}

/** The body of the save (spec §7): settings of removed components dropped, the actions mode applied. */
export function pipelineBody(context: PipelineFormContext): PipelineWrite {
  const schedule = scheduleFor(context.scheduleChoice, context.customCron);
  const timeout = nonNegativeInt(context.timeout);
  const retries = nonNegativeInt(context.maxRetries);
  const actions = context.actions
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return {
    name: context.name.trim(),
    properties: keepCurrentProperties(context.properties, context.components.map((c) => c.name)),
    // An auto-save with a half-typed custom cron keeps the stored schedule.
    schedule: schedule.ok ? schedule.cron : (context.pipeline?.schedule ?? null),
    dataComponents: context.components.map((c) => c.ref),
    actions: context.actionsMode === 'custom' ? actions : [],
    // Choosing default (or custom) clears the script (spec §4).
    script: context.actionsMode === 'script' ? context.script : null,
    timeout: timeout.ok ? timeout.value : null,
    maxRetries: retries.ok ? retries.value : null,
    triggeredBy: [...context.triggeredBy],
    ...(context.shareTables ? { shareTables: true } : {}),
  };
}

/** The server's components after a save replace the form's refs: new ones now have names. */
function componentsAfterSave(saved: Pipeline, current: readonly EditorComponent[]): readonly EditorComponent[] {
  const embedded = saved._embedded?.dataComponents;
  if (!embedded || embedded.length !== current.length) return current;
  return current.map((component, i) => {
    const server = embedded[i]!;
    return { ...component, ref: server.name, name: server.name };
  });
}

function failure(error: unknown): { banner: string; fieldErrors: Record<string, string> } {
  const apiError: ApiError = apiErrorOf(error);
  if (apiError.kind === 'response' && apiError.status === 400) {
    const errors = serverErrorsOf(apiError.body ?? null);
    return { banner: errors.banner ?? apiError.message, fieldErrors: { ...errors.fields } };
  }
  if (apiError.kind === 'response' && apiError.body?.message) return { banner: apiError.body.message, fieldErrors: {} };
  if (error instanceof Error && !('apiError' in error) && error.message.trim() !== '') return { banner: error.message, fieldErrors: {} };
  return { banner: shellErrorMessage(apiError), fieldErrors: {} };
}

/** The workspace's other pipelines' names: a default name steers clear of them. */
const takenNames = (options: readonly TriggerOption[]): string[] => options.map((option) => option.value);

const withComponents = (context: PipelineFormContext, components: readonly EditorComponent[]) => ({
  components,
  name: context.nameTyped ? context.name : defaultPipelineName(components, takenNames(context.triggerOptions)),
});

export const pipelineFormMachine = setup({
  types: {
    context: {} as PipelineFormContext,
    events: {} as PipelineFormEvent,
    input: {} as PipelineFormInput,
  },
  actors: {
    loadForm: notProvidedActor<LoadedForm, PipelineFormInput>('loadForm'),
    savePipeline: notProvidedActor<Pipeline, SavePipelineInput>('savePipeline'),
    startJob: notProvidedActor<unknown, { pipeline: Pipeline }>('startJob'),
    loadImpact: notProvidedActor<PipelineLineage, { pipeline: Pipeline }>('loadImpact'),
  },
  actions: {
    /** Saving a pipeline navigates to its detail route (spec §2), with the toast to show there. */
    showPipeline: (_, _params: { workspaceId: string; pipelineId: string; toast: string; toastIntent: 'success' | 'warning' }) => notProvided('showPipeline')(),
    /** 'Save & run' ends on the pipelines list, where the run shows. */
    showRuns: (_, _params: { workspaceId: string; toast: string }) => notProvided('showRuns')(),
    /** Closing the editor goes back to the list. */
    close: (_, _params: { workspaceId: string }) => notProvided('close')(),
    loaded: assign(({ event }) => {
      const { pipeline, components, triggers } = (event as unknown as { output: LoadedForm }).output;
      const values = fromPipeline(pipeline);
      const others = triggerOptionsOf(triggers, pipeline);
      return {
        pipeline,
        components,
        triggerOptions: others,
        ...values,
        name: values.name !== '' ? values.name : defaultPipelineName(components, takenNames(others)),
        nameTyped: values.name !== '',
      };
    }),
    saved: assign(({ context, event }) => {
      const saved = (event as unknown as { output: Pipeline }).output;
      // what the server filled in (a new pipeline's table prefix) shows; what the person typed stays
      const filled = Object.fromEntries(Object.entries(saved.properties ?? {}).filter(([key]) => !Object.hasOwn(context.properties, key)));
      return { pipeline: saved, components: componentsAfterSave(saved, context.components), properties: { ...filled, ...context.properties }, banner: null, fieldErrors: {}, shareTables: false };
    }),
    showFailure: assign(({ event }) => failure((event as unknown as { error: unknown }).error)),
    addComponents: assign(({ context, event }) => {
      const { components } = event as Extract<PipelineFormEvent, { type: 'user.addComponents' }>;
      const fresh = components.filter((c) => !context.components.some((existing) => existing.name === c.name));
      return withComponents(context, [...context.components, ...fresh]);
    }),
    removeComponent: assign(({ context, event }) => {
      const { name } = event as Extract<PipelineFormEvent, { type: 'user.removeComponent' }>;
      return withComponents(
        context,
        context.components.filter((c) => c.name !== name),
      );
    }),
    showLocalErrors: assign(({ context }, { kind }: { kind: SaveKind }) => ({ fieldErrors: localErrors(context, kind), banner: null })),
    missingLinkFor: assign(({ context }, { kind }: { kind: SaveKind }) => ({ banner: missingLinkText(context, kind) })),
    missingLink: assign(({ context }) => ({ banner: missingLinkText(context, 'validate') })),
  },
  guards: {
    validateOnLoad: ({ context }) => context.input.validate,
    canAutoSave: ({ context }) => canAutoSave(context.pipeline),
    hasLocalErrors: ({ context }, { kind }: { kind: SaveKind }) => Object.keys(localErrors(context, kind)).length > 0,
    hasSaveLink: ({ context }, { kind }: { kind: SaveKind | 'validate' }) => saveRelOf(context.pipeline, savesAsDraft(kind, isDraft(context.pipeline))).ok,
    savedWithId: (_, { pipeline }: { pipeline: Pipeline }) => hasId(pipeline),
    /** a save (it has its link) that may cut off what reads the pipeline's tables, of a pipeline that can say what that is */
    mayCutOff: ({ context }) =>
      context.pipeline !== null && !isDraft(context.pipeline) && saveRelOf(context.pipeline, false).ok && hasLink(context.pipeline, REL.lineage) && mayCutOff(context.pipeline, valuesOf(context)),
  },
}).createMachine({
  id: 'pipelineForm',
  initial: 'loading',
  context: ({ input }) => ({
    input,
    pipeline: null,
    components: [],
    triggerOptions: [],
    name: '',
    nameTyped: false,
    properties: {},
    actionsMode: 'default',
    actions: '',
    script: '',
    scheduleChoice: 'manual',
    customCron: '',
    timeout: '',
    maxRetries: '',
    triggeredBy: [],
    saveKind: 'save',
    banner: null,
    fieldErrors: {},
    loadError: null,
    shareTables: false,
    runAfterSave: false,
    impact: null,
    cutOff: [],
  }),
  states: {
    loading: {
      invoke: {
        id: 'loadForm',
        src: 'loadForm',
        input: ({ context }) => context.input,
        onDone: [
          { guard: 'validateOnLoad', target: 'checking', actions: ['loaded', assign({ saveKind: 'validate' })] },
          { target: 'editing', actions: 'loaded' },
        ],
        onError: { target: 'failed', actions: assign({ loadError: ({ event }) => failure(event.error).banner }) },
      },
    },
    failed: {
      on: {
        'user.retry': { target: 'loading', actions: assign({ loadError: null }) },
        'user.close': { actions: { type: 'close', params: ({ context }) => ({ workspaceId: context.input.workspaceId }) } },
      },
    },
    // ?validate=true: one save on load, whose errors show; it keeps a draft a draft.
    checking: {
      always: [{ guard: { type: 'hasSaveLink', params: { kind: 'validate' } }, target: 'validating' }, { target: 'editing', actions: 'missingLink' }],
    },
    validating: {
      invoke: {
        id: 'savePipeline',
        src: 'savePipeline',
        input: ({ context }) => saveInput(context, 'validate'),
        onDone: { target: 'editing', actions: 'saved' },
        onError: { target: 'editing', actions: 'showFailure' },
      },
    },
    editing: {
      on: {
        'user.addComponents': [
          { guard: 'canAutoSave', target: 'autoSaving', actions: 'addComponents' },
          { actions: 'addComponents' },
        ],
        'user.removeComponent': [
          { guard: 'canAutoSave', target: 'autoSaving', actions: 'removeComponent' },
          { actions: 'removeComponent' },
        ],
        'user.save': [
          { guard: { type: 'hasLocalErrors', params: { kind: 'save' } }, actions: { type: 'showLocalErrors', params: { kind: 'save' } } },
          { guard: 'mayCutOff', target: 'checkingImpact', actions: assign({ saveKind: 'save', runAfterSave: false, banner: null, fieldErrors: {} }) },
          { guard: { type: 'hasSaveLink', params: { kind: 'save' } }, target: 'saving', actions: assign({ saveKind: 'save', runAfterSave: false, banner: null, fieldErrors: {} }) },
          { actions: { type: 'missingLinkFor', params: { kind: 'save' } } },
        ],
        'user.saveAndRun': [
          { guard: { type: 'hasLocalErrors', params: { kind: 'save' } }, actions: { type: 'showLocalErrors', params: { kind: 'save' } } },
          { guard: 'mayCutOff', target: 'checkingImpact', actions: assign({ saveKind: 'save', runAfterSave: true, banner: null, fieldErrors: {} }) },
          { guard: { type: 'hasSaveLink', params: { kind: 'save' } }, target: 'saving', actions: assign({ saveKind: 'save', runAfterSave: true, banner: null, fieldErrors: {} }) },
          { actions: { type: 'missingLinkFor', params: { kind: 'save' } } },
        ],
        'user.saveDraft': [
          { guard: { type: 'hasLocalErrors', params: { kind: 'draft' } }, actions: { type: 'showLocalErrors', params: { kind: 'draft' } } },
          { guard: { type: 'hasSaveLink', params: { kind: 'draft' } }, target: 'saving', actions: assign({ saveKind: 'draft', runAfterSave: false, banner: null, fieldErrors: {} }) },
          { actions: { type: 'missingLinkFor', params: { kind: 'draft' } } },
        ],
        'user.close': { actions: { type: 'close', params: ({ context }) => ({ workspaceId: context.input.workspaceId }) } },
      },
    },
    // A change to the set of components saves a draft; editing goes on meanwhile, and another
    // change of components starts the save again with the newest set.
    autoSaving: {
      invoke: {
        id: 'savePipeline',
        src: 'savePipeline',
        input: ({ context }) => saveInput(context, 'auto'),
        onDone: { target: 'editing', actions: 'saved' },
        onError: { target: 'editing', actions: 'showFailure' },
      },
      on: {
        'user.addComponents': { target: 'autoSaving', reenter: true, actions: 'addComponents' },
        'user.removeComponent': { target: 'autoSaving', reenter: true, actions: 'removeComponent' },
      },
    },
    saving: {
      invoke: {
        id: 'savePipeline',
        src: 'savePipeline',
        input: ({ context }) => saveInput(context, context.saveKind),
        onDone: [
          { guard: ({ context, event }) => context.runAfterSave && hasId(event.output), target: 'startingRun', actions: 'saved' },
          {
            guard: { type: 'savedWithId', params: ({ event }) => ({ pipeline: event.output }) },
            target: 'saved',
            actions: ['saved', { type: 'showPipeline', params: ({ context, event }) => ({ workspaceId: context.input.workspaceId, pipelineId: event.output.id ?? '', toast: PIPELINE_FORM_TEXTS.saved, toastIntent: 'success' as const }) }],
          },
          { target: 'editing', actions: 'saved' },
        ],
        onError: [
          // another pipeline loads the same data with this prefix: ask before sharing its tables
          { guard: ({ event }) => sharedTablesField(failure(event.error).fieldErrors) !== undefined, target: 'confirmingShare', actions: 'showFailure' },
          { target: 'editing', actions: 'showFailure' },
        ],
      },
    },
    // The save renames the pipeline, moves its tables or deselects streams: what reads them? An
    // impact that cannot be read does not hold the save up (the question is advice, not a lock).
    checkingImpact: {
      invoke: {
        id: 'loadImpact',
        src: 'loadImpact',
        input: ({ context }) => ({ pipeline: context.pipeline! }),
        onDone: [
          {
            guard: ({ context, event }) => hasDownstream(impactOf(event.output)) && cutOffOf(context, event.output).length > 0,
            target: 'confirmingImpact',
            actions: assign(({ context, event }) => ({ impact: event.output, cutOff: cutOffOf(context, event.output) })),
          },
          { target: 'saving' },
        ],
        onError: { target: 'saving' },
      },
    },
    confirmingImpact: {
      exit: assign({ impact: null, cutOff: [] }),
      on: {
        'user.saveAnyway': { target: 'saving' },
        'user.keepEditing': { target: 'editing' },
      },
    },
    confirmingShare: {
      on: {
        'user.shareTables': { target: 'saving', actions: assign({ shareTables: true, banner: null, fieldErrors: {} }) },
        'user.keepTables': { target: 'editing' },
      },
    },
    // 'Save & run': the pipeline is saved; its run is asked for. A run refused (an incomplete
    // pipeline, one already running) leaves the saved pipeline on its page, saying why.
    startingRun: {
      invoke: {
        id: 'startJob',
        src: 'startJob',
        input: ({ context }) => ({ pipeline: context.pipeline! }),
        onDone: { target: 'saved', actions: { type: 'showRuns', params: ({ context }) => ({ workspaceId: context.input.workspaceId, toast: PIPELINE_FORM_TEXTS.savedAndStarted(context.pipeline?.name ?? context.name) }) } },
        onError: {
          target: 'saved',
          actions: {
            type: 'showPipeline',
            params: ({ context, event }) => ({
              workspaceId: context.input.workspaceId,
              pipelineId: context.pipeline?.id ?? '',
              toast: PIPELINE_FORM_TEXTS.runNotStarted(context.pipeline?.name ?? context.name, failure(event.error).banner),
              toastIntent: 'warning' as const,
            }),
          },
        },
      },
    },
    saved: { type: 'final' },
  },
  on: {
    'user.change': {
      guard: ({ context }) => context.pipeline !== null,
      actions: assign(({ context, event }) => ({
        ...(event.field === 'name' ? { name: event.value, nameTyped: true } : { [event.field]: event.value }),
        fieldErrors: withoutKeys(context.fieldErrors, event.field === 'customCron' ? ['schedule'] : [event.field]),
      })),
    },
    'user.setProperty': {
      guard: ({ context }) => context.pipeline !== null,
      actions: assign(({ context, event }) => ({
        properties: { ...context.properties, [event.key]: event.value },
        fieldErrors: withoutKeys(context.fieldErrors, [`properties.${event.key}`]),
        // a confirmation was for the prefix it was asked about
        shareTables: event.key.endsWith(`.${TABLE_PREFIX_SETTING}`) ? false : context.shareTables,
      })),
    },
    'user.actionsMode': {
      guard: ({ context }) => context.pipeline !== null,
      actions: assign(({ event }) => ({ actionsMode: event.mode, ...(event.mode === 'default' ? { script: '' } : {}) })),
    },
    'user.schedule': {
      guard: ({ context }) => context.pipeline !== null,
      actions: assign(({ context, event }) => ({ scheduleChoice: event.choice, fieldErrors: withoutKeys(context.fieldErrors, ['schedule']) })),
    },
    'user.triggers': {
      guard: ({ context }) => context.pipeline !== null,
      actions: assign(({ context, event }) => ({
        // a pipeline never triggers itself, and only offered names count
        triggeredBy: event.names.filter((name) => context.triggerOptions.some((o) => o.value === name && !o.disabled)),
      })),
    },
  },
});

/** A saved pipeline the server has given an id: one that has a page, and can be run. */
function hasId(pipeline: Pipeline): boolean {
  return typeof pipeline.id === 'string' && pipeline.id !== '';
}

/** The values a save would write, as the impact check compares them with the saved pipeline's. */
const valuesOf = (context: PipelineFormContext) => ({ name: context.name, properties: pipelineBody(context).properties ?? {} });

/** What the save changes that reaches the tables this impact lists (by the streams they hold). */
function cutOffOf(context: PipelineFormContext, impact: PipelineLineage): string[] {
  const streams = impact.tables.map((t) => t.stream).filter((s): s is string => typeof s === 'string');
  return context.pipeline === null ? [] : cutOffChanges(context.pipeline, valuesOf(context), streams);
}

function isDraft(pipeline: Pipeline | null): boolean {
  return pipeline?.draft === true || pipeline?.status === 'DRAFT';
}

function missingLinkText(context: PipelineFormContext, kind: SaveKind | 'validate'): string {
  const rel = saveRelOf(context.pipeline, savesAsDraft(kind, isDraft(context.pipeline)));
  return rel.ok ? '' : rel.message;
}

function saveInput(context: PipelineFormContext, kind: SaveKind | 'validate'): SavePipelineInput {
  const rel = saveRelOf(context.pipeline, savesAsDraft(kind, isDraft(context.pipeline)));
  return { pipeline: context.pipeline, rel: rel.ok ? rel.rel : '', body: pipelineBody(context) };
}

const triggerOptionsOf = (triggers: LoadedForm['triggers'], pipeline: Pipeline): TriggerOption[] => triggerOptions(triggers, pipeline);

function withoutKeys(errors: Readonly<Record<string, string>>, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).filter(([key]) => !keys.includes(key)));
}

export type PipelineFormSnapshot = SnapshotFrom<typeof pipelineFormMachine>;

export const selectBusy = (s: PipelineFormSnapshot): boolean => s.matches('saving') || s.matches('validating') || s.matches('startingRun') || s.matches('checkingImpact');
export const selectAutoSaving = (s: PipelineFormSnapshot): boolean => s.matches('autoSaving');

/** What the form asks before a save shares another pipeline's tables, or null when it asks nothing. */
export const selectShareQuestion = (s: PipelineFormSnapshot): string | null => {
  if (!s.matches('confirmingShare')) return null;
  const field = sharedTablesField(s.context.fieldErrors);
  return field === undefined ? null : (s.context.fieldErrors[field] ?? null);
};

/** What the form asks before a save that reaches downstream datasets and dashboards (issue 41), or null. */
export const selectImpactQuestion = (s: PipelineFormSnapshot): { title: string; impact: PipelineLineage } | null =>
  s.matches('confirmingImpact') && s.context.impact !== null ? { title: saveWarningTitle(s.context.cutOff), impact: s.context.impact } : null;
