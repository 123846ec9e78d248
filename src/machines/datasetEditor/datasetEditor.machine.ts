import { and, assign, emit, not, setup, stateIn } from 'xstate';
import { applyChartEdit, type ChartEdit } from '../../domain/chartBuilder';
import { builderSource } from '../../domain/chartBuilderColumns';
import type { SnapshotFrom } from 'xstate';
import type { ApiError } from '../../api/errors';
import {
  changedFields,
  checkDatasetForm,
  EMPTY_DATASET_FORM,
  formErrorsFromServer,
  formValuesOf,
  type DatasetFormErrors,
  type DatasetFormField,
  type DatasetFormValues,
} from '../../domain/datasetEditor';
import { hasLink, type HalLike } from '../../domain/hal';
import { datasetFormForTable } from '../../domain/loadedData';
import { applyQueryEdit, initialQueryMode, QUERY_MODES, type QueryEdit, type QueryMode } from '../../domain/queryBuilderEdit';
import { serverErrorsOf } from '../../domain/pipelineForm';
import { REL } from '../../domain/relations';
import type { Dataset, DatasetPreview, DatasetWrite, StoreTable } from '../../domain/resources';
import { apiErrorOf } from '../apiError';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The Lab's dataset editor (issue 8, publishing), opened by ?edit={datasetId} or ?edit=new.
// The form region: loading → editing → validating → saving → saved, or failed with the server's
// reasons on the fields. The preview region runs beside it: 600 ms after the query stops
// changing the query is previewed on the server (previewing → previewed / previewFailed).
// The query is picked in the query builder or typed as SQL (queryMode, issue 38): a pick is one
// user.buildQuery edit of the SQL, previewed like typing; SQL the builder cannot read is left alone.
// Cancel (user.cancel, issue 38) closes at once when nothing was changed since the form was
// loaded; with changes it asks first (confirmingDiscard: user.discard closes, user.keepEditing
// goes back to the form as it was). A closed editor emits dataset.closed.

/** The chart a form started on a table draws from its first preview (the builder then suggests its columns). */
export const FIRST_CHART: ChartEdit = { type: 'kind', kind: 'bar' };

/** How long the query must rest before it is previewed: typing does not send a query per key. */
export const PREVIEW_DEBOUNCE_MS = 600;

export interface ChannelOption {
  readonly id: string;
  readonly name: string;
}

export interface DatasetEditorInput {
  readonly workspace: HalLike;
  /** null for ?edit=new */
  readonly datasetId: string | null;
  /** a new dataset started on this store table (?edit=new&table, issue 38): its title and first rows */
  readonly table?: string | null;
}

export interface LoadedEditor {
  readonly dataset: Dataset | null;
  readonly channels: readonly ChannelOption[];
  /** the store table a new dataset starts on (?table), with its columns, when the store lists it */
  readonly table?: StoreTable | null;
}

export interface SaveDatasetInput {
  readonly workspace: HalLike;
  /** null: publish a new dataset; else edit this one */
  readonly dataset: Dataset | null;
  readonly body: DatasetWrite;
}

export interface PreviewInput {
  readonly workspace: HalLike;
  readonly query: string;
}

export interface DatasetEditorContext {
  readonly input: DatasetEditorInput;
  readonly dataset: Dataset | null;
  readonly channels: readonly ChannelOption[];
  readonly values: DatasetFormValues;
  readonly errors: DatasetFormErrors;
  readonly banner: string | null;
  readonly loadError: string | null;
  readonly preview: DatasetPreview | null;
  /** the server's reason the query was refused, or why the preview failed */
  readonly previewError: string | null;
  /** started on a table (issue 38): the first preview draws a first chart, once */
  readonly firstChart: boolean;
  /** the query builder or the SQL (issue 38); the SQL is the query either way */
  readonly queryMode: QueryMode;
  /** the values as loaded (and as the editor itself drew the first chart): Cancel compares with them */
  readonly baseline: DatasetFormValues;
}

export type DatasetEditorEvent =
  | { readonly type: 'user.change'; readonly field: DatasetFormField; readonly value: string }
  /** the chart builder's choice, written into the visualisation and metadata JSON together */
  | { readonly type: 'user.build'; readonly edit: ChartEdit }
  /** the query builder's pick, written into the SQL (issue 38) */
  | { readonly type: 'user.buildQuery'; readonly edit: QueryEdit }
  | { readonly type: 'user.queryMode'; readonly mode: QueryMode }
  | { readonly type: 'user.save' }
  /** Cancel, the drawer's Close or Escape: asks first when there are unsaved changes */
  | { readonly type: 'user.cancel' }
  | { readonly type: 'user.discard' }
  | { readonly type: 'user.keepEditing' }
  | { readonly type: 'user.retry' }
  | { readonly type: 'user.preview' };

export type DatasetEditorEmitted = { readonly type: 'dataset.saved'; readonly dataset: Dataset } | { readonly type: 'dataset.closed' };

/** A failed save: a 400's fields on the form (the rest in the banner), anything else as the banner. */
export function saveFailure(error: unknown): { banner: string | null; errors: DatasetFormErrors } {
  const apiError: ApiError = apiErrorOf(error);
  if (apiError.kind === 'response' && apiError.status === 400) {
    const server = serverErrorsOf(apiError.body ?? null);
    const { errors, unplaced } = formErrorsFromServer(server.fields);
    const banner = unplaced.length > 0 ? unplaced.join(' ') : Object.keys(errors).length > 0 ? null : (server.banner ?? apiError.message);
    return { banner, errors };
  }
  if (apiError.kind === 'response' && apiError.body?.message) return { banner: apiError.body.message, errors: {} };
  return { banner: failureText(error), errors: {} };
}

/** Why a preview failed: the server's reason on field 'query' (a refused or failing query), else the failure. */
export function previewFailure(error: unknown): string {
  const apiError = apiErrorOf(error);
  if (apiError.kind === 'response' && apiError.status === 400) {
    const server = serverErrorsOf(apiError.body ?? null);
    return server.fields.query ?? server.banner ?? apiError.message;
  }
  if (apiError.kind === 'response' && apiError.body?.message) return apiError.body.message;
  return failureText(error);
}

const withoutField = (errors: DatasetFormErrors, field: DatasetFormField): DatasetFormErrors => {
  const rest: Partial<Record<DatasetFormField, string>> = { ...errors };
  delete rest[field];
  return rest;
};

export const datasetEditorMachine = setup({
  types: {
    context: {} as DatasetEditorContext,
    events: {} as DatasetEditorEvent,
    input: {} as DatasetEditorInput,
    emitted: {} as DatasetEditorEmitted,
  },
  actors: {
    loadEditor: notProvidedActor<LoadedEditor, DatasetEditorInput>('loadEditor'),
    saveDataset: notProvidedActor<Dataset, SaveDatasetInput>('saveDataset'),
    previewQuery: notProvidedActor<DatasetPreview, PreviewInput>('previewQuery'),
  },
  actions: {
    changeValue: assign(({ context, event }) => {
      if (event.type !== 'user.change') return {};
      return { values: { ...context.values, [event.field]: event.value }, errors: withoutField(context.errors, event.field) };
    }),
    // JSON the builder cannot read comes back unchanged, so the expert's text is never lost
    applyBuild: assign(({ context, event }) => {
      if (event.type !== 'user.build') return {};
      const texts = applyChartEdit(context.values, event.edit, builderSource(context.values, context.preview));
      return { values: { ...context.values, ...texts }, errors: withoutField(withoutField(context.errors, 'visualisation'), 'metadata') };
    }),
    // SQL the builder cannot read comes back unchanged, as the chart builder's JSON does
    applyQueryBuild: assign(({ context, event }) => {
      if (event.type !== 'user.buildQuery') return {};
      return { values: { ...context.values, query: applyQueryEdit(context.values.query, event.edit) }, errors: withoutField(context.errors, 'query') };
    }),
    // the editor's own first chart is no change of the person's: Cancel does not ask for it
    applyFirstChart: assign(({ context }) => {
      const texts = applyChartEdit(context.values, FIRST_CHART, builderSource(context.values, context.preview));
      return { values: { ...context.values, ...texts }, baseline: { ...context.baseline, ...texts } };
    }),
    emitClosed: emit((): DatasetEditorEmitted => ({ type: 'dataset.closed' })),
  },
  delays: { previewDelay: PREVIEW_DEBOUNCE_MS },
  guards: {
    formValid: ({ context }) => checkDatasetForm(context.values).ok,
    hasUnsavedChanges: ({ context }) => changedFields(context.values, context.baseline).length > 0,
    // Only a workspace that offers 'preview dataset' is asked; an empty query has nothing to show.
    canPreview: ({ context }) => context.values.query.trim() !== '' && hasLink(context.input.workspace, REL.previewDataset),
    isQueryChange: ({ event }) => event.type === 'user.change' && event.field === 'query',
    // a pick the builder cannot write (unreadable SQL, nothing changed) asks for no new preview
    buildChangesQuery: ({ context, event }) => event.type === 'user.buildQuery' && applyQueryEdit(context.values.query, event.edit) !== context.values.query,
    // only the first preview of a form started on a table, and only while no chart is set
    isQueryMode: ({ event }) => event.type === 'user.queryMode' && (QUERY_MODES as readonly string[]).includes(event.mode),
    drawsFirstChart: ({ context }) => context.firstChart && context.values.visualisation.trim() === '' && context.values.metadata.trim() === '',
  },
}).createMachine({
  id: 'datasetEditor',
  context: ({ input }) => ({
    input,
    dataset: null,
    channels: [],
    values: EMPTY_DATASET_FORM,
    errors: {},
    banner: null,
    loadError: null,
    preview: null,
    previewError: null,
    firstChart: Boolean(input.table),
    queryMode: 'sql',
    baseline: EMPTY_DATASET_FORM,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadEditor',
        src: 'loadEditor',
        input: ({ context }) => context.input,
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            const values = event.output.dataset !== null ? formValuesOf(event.output.dataset) : context.input.table ? datasetFormForTable(event.output.table ?? context.input.table) : EMPTY_DATASET_FORM;
            // a query the builder reads opens in the builder, any other (and none yet) as SQL
            return { dataset: event.output.dataset, channels: event.output.channels, values, baseline: values, loadError: null, queryMode: initialQueryMode(values.query) };
          }),
        },
        onError: { target: 'loadFailed', actions: assign({ loadError: ({ event }) => failureText(event.error) }) },
      },
      on: { 'user.cancel': 'closed' },
    },
    loadFailed: {
      on: { 'user.retry': 'loading', 'user.cancel': 'closed' },
    },
    ready: {
      type: 'parallel',
      on: {
        'user.queryMode': { guard: 'isQueryMode', actions: assign({ queryMode: ({ event }) => event.mode }) },
      },
      states: {
        form: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'user.change': { actions: 'changeValue' },
                'user.build': { actions: 'applyBuild' },
                'user.buildQuery': { actions: 'applyQueryBuild' },
                'user.save': 'validating',
                'user.cancel': [{ guard: 'hasUnsavedChanges', target: 'confirmingDiscard' }, { target: '#datasetEditor.closed' }],
              },
            },
            // 'Discard your changes?': nothing else of the form is taken while it asks
            confirmingDiscard: {
              on: {
                'user.discard': '#datasetEditor.closed',
                'user.keepEditing': 'editing',
              },
            },
            validating: {
              always: [
                { guard: 'formValid', target: 'saving', actions: assign({ errors: {}, banner: null }) },
                {
                  target: 'editing',
                  actions: assign(({ context }) => {
                    const check = checkDatasetForm(context.values);
                    return { errors: check.ok ? {} : check.errors, banner: null };
                  }),
                },
              ],
            },
            saving: {
              invoke: {
                id: 'saveDataset',
                src: 'saveDataset',
                input: ({ context }) => {
                  const check = checkDatasetForm(context.values);
                  // validating let only a valid form through; the guard and this read the same values
                  if (!check.ok) throw new Error('saving an invalid form');
                  return { workspace: context.input.workspace, dataset: context.dataset, body: check.body };
                },
                onDone: {
                  target: '#datasetEditor.saved',
                  actions: [
                    assign({ dataset: ({ event }) => event.output }),
                    emit(({ event }): DatasetEditorEmitted => ({ type: 'dataset.saved', dataset: event.output })),
                  ],
                },
                onError: { target: 'failed', actions: assign(({ event }) => saveFailure(event.error)) },
              },
            },
            failed: {
              on: {
                'user.change': { target: 'editing', actions: 'changeValue' },
                'user.build': { target: 'editing', actions: 'applyBuild' },
                'user.buildQuery': { target: 'editing', actions: 'applyQueryBuild' },
                'user.save': 'validating',
                'user.cancel': [{ guard: 'hasUnsavedChanges', target: 'confirmingDiscard' }, { target: '#datasetEditor.closed' }],
              },
            },
          },
        },
        preview: {
          initial: 'starting',
          on: {
            // typing restarts the wait; a change while the form saves is not taken, so neither is its preview
            'user.change': {
              guard: and(['isQueryChange', not(stateIn('#datasetEditor.ready.form.saving'))]),
              target: '.debouncing',
              reenter: true,
            },
            // a pick in the query builder is previewed as typing is
            'user.buildQuery': {
              guard: and(['buildChangesQuery', not(stateIn('#datasetEditor.ready.form.saving'))]),
              target: '.debouncing',
              reenter: true,
            },
          },
          states: {
            starting: {
              always: [{ guard: 'canPreview', target: 'previewing' }, { target: 'idle' }],
            },
            idle: {
              on: { 'user.preview': { guard: 'canPreview', target: 'previewing' } },
            },
            debouncing: {
              after: {
                previewDelay: [
                  { guard: 'canPreview', target: 'previewing' },
                  { target: 'idle', actions: assign({ preview: null, previewError: null }) },
                ],
              },
            },
            previewing: {
              invoke: {
                id: 'previewQuery',
                src: 'previewQuery',
                input: ({ context }) => ({ workspace: context.input.workspace, query: context.values.query }),
                onDone: [
                  // 'Build your first chart': the first rows of a table arrive drawn, as the chart builder suggests a bar chart of them
                  {
                    guard: 'drawsFirstChart',
                    target: 'previewed',
                    actions: [assign({ preview: ({ event }) => event.output, previewError: null, firstChart: false }), 'applyFirstChart'],
                  },
                  { target: 'previewed', actions: assign({ preview: ({ event }) => event.output, previewError: null, firstChart: false }) },
                ],
                onError: { target: 'previewFailed', actions: assign({ preview: null, previewError: ({ event }) => previewFailure(event.error) }) },
              },
            },
            previewed: {
              on: { 'user.preview': { guard: 'canPreview', target: 'previewing' } },
            },
            previewFailed: {
              on: { 'user.preview': { guard: 'canPreview', target: 'previewing' } },
            },
          },
        },
      },
    },
    saved: { type: 'final' },
    closed: { type: 'final', entry: 'emitClosed' },
  },
});

export type DatasetEditorSnapshot = SnapshotFrom<typeof datasetEditorMachine>;

/** The form's inputs are locked while it loads or saves. */
export function selectBusy(snapshot: DatasetEditorSnapshot): boolean {
  return snapshot.matches('loading') || snapshot.matches({ ready: { form: 'saving' } }) || snapshot.matches('saved');
}

/** 'Discard your changes?' is open. */
export const selectConfirmingDiscard = (snapshot: DatasetEditorSnapshot): boolean => snapshot.matches({ ready: { form: 'confirmingDiscard' } });

export const selectQueryMode = (snapshot: DatasetEditorSnapshot): QueryMode => snapshot.context.queryMode;

export function selectPreviewState(snapshot: DatasetEditorSnapshot): 'idle' | 'waiting' | 'previewing' | 'previewed' | 'failed' {
  if (snapshot.matches({ ready: { preview: 'debouncing' } })) return 'waiting';
  if (snapshot.matches({ ready: { preview: 'previewing' } })) return 'previewing';
  if (snapshot.matches({ ready: { preview: 'previewed' } })) return 'previewed';
  if (snapshot.matches({ ready: { preview: 'previewFailed' } })) return 'failed';
  return 'idle';
}
