import { hasLink, type HalLike } from './hal';
import { defaultActions, type ScriptComponent } from './pipelineScript';
import { REL } from './relations';
import { ownValue } from './ownValue';

// The pipeline form's rules (spec 001 §4 'Saving a pipeline', §5 'Pipeline form', §8). Pure:
// the machine keeps the values, these decide what they mean.

export const PIPELINE_FORM_TEXTS = {
  nameRequired: 'Name is required',
  nonNegative: 'Enter a whole number, 0 or more',
  timeoutPlaceholder: '300',
  noTriggers: 'No other pipelines',
  saved: 'Pipeline saved',
  savedAndStarted: (name: string) => `${name} saved: its run has started.`,
  runNotStarted: (name: string, why: string) => `${name} saved, but its run could not start: ${why}`,
} as const;

type MissingLinkVerb = 'created' | 'read' | 'updated' | 'deleted' | 'drafted';

/** Spec §8, word for word: "Entity '{item}' cannot be created" and its siblings. */
export const missingLinkMessage = (item: string, verb: MissingLinkVerb): string => `Entity '${item}' cannot be ${verb}`;

export type ActionsMode = 'default' | 'custom' | 'script';

/** Script if a script exists, custom if actions exist, else default. */
export function actionsModeOf(pipeline: { readonly script?: string | null | undefined; readonly actions?: readonly string[] | null | undefined }): ActionsMode {
  if (typeof pipeline.script === 'string' && pipeline.script.trim() !== '') return 'script';
  if (Array.isArray(pipeline.actions) && pipeline.actions.length > 0) return 'custom';
  return 'default';
}

/** A component as the form holds it: what goes into dataComponents, and the prefix of its settings. */
export interface FormComponent extends ScriptComponent {
  /** an existing component's name, or `{plural type}/{plugin}[--variant]` for one the save creates */
  readonly ref: string;
  readonly label?: string | null | undefined;
}

/** The actions the default mode runs, shown read-only. */
export const defaultActionsOf = (components: readonly FormComponent[]): string[] => defaultActions(components);

/**
 * What 'Add component''s two tabs hold, said under them (issue 38: the same plugins showed two
 * ways with no word of the difference).
 */
export const COMPONENT_TABS_TEXT = {
  existing: 'Reuse a component this workspace already has, with the settings it was given.',
  new: 'Make a new component from a plugin, to give it settings of its own.',
} as const;

/** What Default runs, as the form shows it before anything is added. */
export const NO_DEFAULT_ACTIONS = 'Nothing to run yet: add an extractor and a loader, and Default runs them in order.';

/**
 * The default mode's line: its actions in order, or, before any component is chosen, what it
 * will run (issue 38: the job's 'echo "hello world"' fallback meant nothing to a newcomer).
 */
export function defaultActionsLine(components: readonly FormComponent[]): string {
  const actions = defaultActionsOf(components);
  return actions.length === 0 ? NO_DEFAULT_ACTIONS : actions.join(' → ');
}

/**
 * The name defaults to the first plugin's label or name unless the user typed one; when another
 * pipeline of the workspace has that name (the server compares case aside) it is numbered on,
 * 'Demo data 2', so adding a component never meets a refusal the person did not cause (issue 38).
 */
export function defaultPipelineName(components: readonly FormComponent[], taken: readonly string[] = []): string {
  const first = components[0];
  if (first === undefined) return '';
  const base = typeof first.label === 'string' && first.label.trim() !== '' ? first.label : first.name;
  const used = new Set(taken.map((name) => name.trim().toLowerCase()));
  let candidate = base;
  for (let n = 2; used.has(candidate.trim().toLowerCase()); n++) candidate = `${base} ${String(n)}`;
  return candidate;
}

/** Keys '{component}.{setting}' of current components only: settings of removed components are dropped on save. */
export function keepCurrentProperties(properties: Readonly<Record<string, unknown>>, componentNames: readonly string[]): Record<string, unknown> {
  const prefixes = componentNames.filter((name) => name !== '').map((name) => `${name}.`);
  const kept = new Map<string, unknown>();
  for (const [key, value] of Object.entries(properties)) {
    if (prefixes.some((prefix) => key.startsWith(prefix))) kept.set(key, value);
  }
  return Object.fromEntries(kept);
}

export type SaveKind = 'save' | 'draft' | 'auto';

/**
 * Whether a save is stored as draft. Save stores a non-draft, Save as draft and the auto-save a
 * draft; the save the form makes itself (`?validate=true`, 'auto' is not it) keeps a draft a draft.
 */
export function savesAsDraft(kind: SaveKind | 'validate', isDraft: boolean): boolean {
  if (kind === 'draft' || kind === 'auto') return true;
  if (kind === 'validate') return isDraft;
  return false;
}

type SaveRel = { readonly ok: true; readonly rel: string } | { readonly ok: false; readonly message: string };

/** The draft link for a draft; otherwise create when the pipeline can be created, update otherwise. */
export function saveRelOf(pipeline: HalLike, asDraft: boolean): SaveRel {
  if (asDraft) return hasLink(pipeline, REL.draftPipeline) ? { ok: true, rel: REL.draftPipeline } : { ok: false, message: missingLinkMessage('pipeline', 'drafted') };
  if (hasLink(pipeline, REL.createPipeline)) return { ok: true, rel: REL.createPipeline };
  if (hasLink(pipeline, REL.updatePipeline)) return { ok: true, rel: REL.updatePipeline };
  return { ok: false, message: missingLinkMessage('pipeline', 'updated') };
}

/** Auto-save runs only when the pipeline is creatable (a draft link to keep it a draft) and its plugins are readable. */
export const canAutoSave = (pipeline: HalLike): boolean => hasLink(pipeline, REL.draftPipeline) && hasLink(pipeline, REL.dataplugins);

interface ServerErrors {
  /** the first message, shown as the red banner */
  readonly banner: string | null;
  /** field ('name', 'properties.{component}.{setting}') → its default message */
  readonly fields: Readonly<Record<string, string>>;
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** A 400 body as an array of errors, or an object with message and errors (spec §5). */
export function serverErrorsOf(body: unknown): ServerErrors {
  const list: unknown[] = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null && Array.isArray((body as { errors?: unknown }).errors)
      ? (body as { errors: unknown[] }).errors
      : [];
  const fields = new Map<string, string>();
  let first: string | undefined;
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const { field, defaultMessage } = item as { field?: unknown; defaultMessage?: unknown };
    const message = textOf(defaultMessage);
    if (message === undefined) continue;
    first ??= message;
    const name = textOf(field);
    if (name !== undefined && !fields.has(name)) fields.set(name, message);
  }
  const message = !Array.isArray(body) && typeof body === 'object' && body !== null ? textOf((body as { message?: unknown }).message) : undefined;
  return { banner: message ?? first ?? null, fields: Object.fromEntries(fields) };
}

/** The field error key of a component's setting. */
export const settingField = (component: string, setting: string): string => `properties.${component}.${setting}`;

export interface TriggerOption {
  readonly value: string;
  readonly disabled: boolean;
}

/** Other pipelines' names (a pipeline never triggers itself); an empty name is shown disabled. */
export function triggerOptions(pipelines: readonly { readonly id?: string | null | undefined; readonly name?: string | null | undefined }[], self: { readonly id?: string | null | undefined; readonly name?: string | null | undefined }): TriggerOption[] {
  const seen = new Set<string>();
  const options: TriggerOption[] = [];
  for (const pipeline of pipelines) {
    if (typeof self.id === 'string' && pipeline.id === self.id) continue;
    const name = typeof pipeline.name === 'string' ? pipeline.name : '';
    if (name !== '' && name === self.name) continue;
    if (seen.has(name)) continue;
    seen.add(name);
    options.push({ value: name, disabled: name.trim() === '' });
  }
  return options;
}

type NumberField = { readonly ok: true; readonly value: number | null } | { readonly ok: false; readonly message: string };

/** Timeout and max retries: empty means unset; otherwise a whole number, minimum 0. */
export function nonNegativeInt(text: string): NumberField {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  if (!/^\d{1,9}$/.test(trimmed)) return { ok: false, message: PIPELINE_FORM_TEXTS.nonNegative };
  return { ok: true, value: Number(trimmed) };
}

export const canSaveName = (name: string): boolean => name.trim() !== '';

const PLURAL: Readonly<Record<string, string>> = {
  EXTRACTOR: 'extractors',
  LOADER: 'loaders',
  MAPPER: 'mappers',
  TRANSFORMER: 'transformers',
  UTILITY: 'utilities',
  FILE: 'files',
};

/** A plugin added from the New tab: `{plural type}/{name}[--variant]`, the form of a component's dataPlugin. */
export function newComponentRef(plugin: { readonly pluginType: string; readonly name: string; readonly variant?: string | null | undefined }): string {
  const type = ownValue(PLURAL, plugin.pluginType) ?? `${plugin.pluginType.toLowerCase()}s`;
  const variant = typeof plugin.variant === 'string' && plugin.variant !== '' ? `--${plugin.variant}` : '';
  return `${type}/${plugin.name}${variant}`;
}
