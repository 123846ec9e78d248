import { checkSchedule } from '../../src/domain/cron';
import { z } from 'zod';
import { MAX_RETRIES, MAX_TIMEOUT_SECONDS } from '../../src/domain/jobStatus';
import { keepMaskedValues, PIPELINE_MESSAGES, pipelineErrors, pipelineKeySensitivity } from '../../src/domain/pipelineRules';
import type { Db } from '../db/database';
import { badRequest, type FieldError } from '../http/errors';
import { listDataComponents, parsePluginReference, resolveDataComponents, type DataComponentRow } from '../repositories/dataComponents';
import { workspacePlugins, type WorkspacePlugin } from '../repositories/dataPlugins';
import { notifyPipelineActivity } from '../notifications/pipelineEvents';
import { componentRule, pipelineFacts } from '../repositories/pipelineFacts';
import { createPipeline, updatePipeline, type PipelineRow } from '../repositories/pipelines';
import * as setupTasks from '../setupTasks';
import { ensureDefaultStore } from '../stores/defaultStore';
import { tablePrefixErrors, withTablePrefixes } from './tablePrefixes';

// Create, update and draft share one path: resolve the components the body names (creating a
// component for a plugin reference), validate with the domain's rules, write. All of it runs in
// one transaction, so a refused save leaves no component behind.

export const OBJECT_NAME = 'pipeline';

const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];

/**
 * A properties map. zod's record silently drops a `__proto__` key (it becomes the prototype), so a
 * body naming one would be saved as if the key were not there: refuse it instead, naming the field.
 */
export const propertiesRecord = z.preprocess(
  (value, check) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const bad = Object.keys(value).find((key) => FORBIDDEN_KEYS.includes(key));
      if (bad !== undefined) {
        check.addIssue({ code: 'custom', message: `must not use the key ${bad}`, path: [bad] });
        return z.NEVER;
      }
    }
    return value;
  },
  z.record(z.string().max(1_000, 'is too long'), z.unknown()),
);

/** The body of 'create pipeline', 'update pipeline' and 'draft pipeline' (spec 001 §7). PUT replaces: an absent field is reset. */
export const pipelineWriteBody = z.object({
  name: z.string({ message: PIPELINE_MESSAGES.nameRequired }).max(10_000, 'must be at most 255 characters'),
  properties: propertiesRecord.nullish(),
  schedule: z.string().max(1_000, 'is not a cron expression').nullish(),
  dataComponents: z.array(z.string().max(500, 'is too long')).max(100, 'must list at most 100 components').nullish(),
  actions: z.array(z.string().max(1_000, 'is too long')).max(200, 'must list at most 200 actions').nullish(),
  script: z.string().max(100_000, 'must be at most 100000 characters').nullish(),
  timeout: z.int('must be a whole number of seconds').min(0, 'must be 0 or more').max(MAX_TIMEOUT_SECONDS, `must be at most ${MAX_TIMEOUT_SECONDS}`).nullish(),
  maxRetries: z.int('must be a whole number').min(0, 'must be 0 or more').max(MAX_RETRIES, `must be at most ${MAX_RETRIES}`).nullish(),
  triggeredBy: z.array(z.string().max(500, 'is too long')).max(100, 'must list at most 100 triggers').nullish(),
  /** the person confirmed that this pipeline loads into the same tables as another (tableNamespace.ts) */
  shareTables: z.boolean('must be true or false').nullish(),
});
export type PipelineWriteBody = z.output<typeof pipelineWriteBody>;

const UNKNOWN_COMPONENT = 'names no data component of this workspace or plugin of the catalogue';

/**
 * A plugin reference ('extractors/tap-demo[--builtin]') of a plugin the workspace installed, with
 * the plugin's variant spelled out (so a component made from it records its variant); undefined
 * for anything else. Without a variant the built-in (listed first) is meant. Custom plugins are
 * added to a project with `meltano add`, not made into components here.
 */
export function installedReference(entry: string, installed: readonly WorkspacePlugin[]): string | undefined {
  const reference = parsePluginReference(entry);
  if (!reference) return undefined;
  const plugin = installed.find(
    (p) => !p.custom && p.pluginType === reference.pluginType && p.name === reference.pluginName && (reference.variant === null || reference.variant === p.variant),
  );
  if (!plugin) return undefined;
  return reference.variant === null && plugin.variant ? `${entry}--${plugin.variant}` : entry;
}

function fieldErrors(errors: Record<string, string>): FieldError[] {
  return Object.entries(errors).map(([field, defaultMessage]) => ({ field, objectName: OBJECT_NAME, defaultMessage }));
}

/** The stored form of a schedule that passed the rules (a 5-field cron gets its seconds). */
const normaliseSchedule = (schedule: string | null | undefined) => {
  const checked = checkSchedule(schedule);
  return checked.ok ? checked.schedule : null;
};

interface SaveRequest {
  workspaceId: string;
  /** the pipeline's id: minted by 'new pipeline', or the stored one */
  id: string;
  existing: PipelineRow | undefined;
  body: PipelineWriteBody;
  draft: boolean;
  /** the creator of a new pipeline; null for a deployment queued by no one */
  createdBy: string | null;
  /**
   * a new pipeline writes the bare stream names unless its body names a prefix: a deployment's,
   * whose repository's datasets read the tables by the names Matatika loads them under
   */
  unprefixed?: boolean;
}

/** What a save writes, once the body passed every rule; a 400 with every field error otherwise. */
async function checkedInput(trx: Db, request: SaveRequest) {
  const { workspaceId, id, existing, body, draft } = request;
  const errors: Record<string, string> = {};
  const existingComponents = await listDataComponents(trx, workspaceId);
  const { installed } = await workspacePlugins(trx, workspaceId);
  const entries = (body.dataComponents ?? []).map((e) => e.trim());
  const known = entries.flatMap((entry, index) => {
    if (existingComponents.some((c) => c.name === entry)) return [entry];
    const reference = installedReference(entry, installed);
    if (reference === undefined) errors[`dataComponents.${index}`] = UNKNOWN_COMPONENT;
    return reference === undefined ? [] : [reference];
  });
  const { components: resolved } = await resolveDataComponents(trx, workspaceId, known);
  const components: DataComponentRow[] = resolved.filter((c, i) => resolved.findIndex((d) => d.id === c.id) === i);
  const workspaceComponents = [...components, ...existingComponents.filter((c) => !components.some((d) => d.id === c.id))];
  const rules = components.map(componentRule);

  const others = await trx.selectFrom('pipelines').select(['name', 'properties', 'data_components']).where('workspace_id', '=', workspaceId).where('id', '!=', id).execute();
  const properties = withTablePrefixes(keepMaskedValues(body.properties ?? {}, existing?.properties ?? {}, pipelineKeySensitivity(rules)), { name: body.name, draft, unprefixed: request.unprefixed === true, components, existing, others });
  const otherNames = others.map((o) => o.name);
  Object.assign(errors, pipelineErrors({ name: body.name, properties, schedule: body.schedule, triggeredBy: body.triggeredBy ?? [] }, { components: rules, otherPipelineNames: otherNames, draft }));
  Object.assign(errors, tablePrefixErrors(body.name, draft, properties, components, others, body.shareTables === true, workspaceComponents));
  if (errors.name === undefined && otherNames.some((n) => n.trim().toLowerCase() === body.name.trim().toLowerCase())) errors.name = PIPELINE_MESSAGES.nameTaken;
  if (Object.keys(errors).length > 0) throw badRequest(`Validation failed for object='${OBJECT_NAME}'`, fieldErrors(errors));

  const input = {
    name: body.name.trim(),
    draft,
    properties,
    schedule: normaliseSchedule(body.schedule),
    dataComponents: components.map((c) => c.name),
    actions: body.actions ?? [],
    script: body.script === undefined || body.script === null || body.script.trim() === '' ? null : body.script,
    timeout: body.timeout ?? 0,
    maxRetries: body.maxRetries ?? 0,
    triggeredBy: (body.triggeredBy ?? []).map((t) => t.trim()),
  };
  return input;
}

/** Validates and writes; a 400 with every field error otherwise. Runs in the caller's transaction. */
export async function savePipeline(trx: Db, request: SaveRequest): Promise<PipelineRow> {
  const { workspaceId, id, existing } = request;
  const input = await checkedInput(trx, request);
  const written = existing ? await updatePipeline(trx, id, input) : await createPipeline(trx, workspaceId, input, request.createdBy, id);
  if (written === undefined) throw badRequest(`Validation failed for object='${OBJECT_NAME}'`, fieldErrors({ id: 'names no pipeline' }));
  if (!written.ok) throw badRequest(`Validation failed for object='${OBJECT_NAME}'`, fieldErrors({ name: PIPELINE_MESSAGES.nameTaken }));
  return written.pipeline;
}

/**
 * The pipeline's setup tasks after a save, in the save's transaction: importing is done, and
 * configuring it is done once it is complete (a draft or one missing a required value leaves it
 * open). The pipelines API and a deployment both do this.
 */
export async function completePipelineTasks(trx: Db, row: PipelineRow, profileId: string | null): Promise<void> {
  const complete = (await pipelineFacts(trx, [row], profileId ?? '')).get(row.id)?.complete ?? false;
  await setupTasks.pipelineSaved(trx, row, complete, profileId);
}

interface PersonSave {
  workspaceId: string;
  id: string;
  existing: PipelineRow | undefined;
  body: PipelineWriteBody;
  draft: boolean;
  /** who saves: the creator of a new pipeline, named in what the watchers hear */
  actor: { profileId: string; name: string };
}

/**
 * A person saves a pipeline (create, update, draft): the save and its setup tasks in one
 * transaction; then a new pipeline's workspace gets its default store (the loader writes there),
 * and an existing pipeline's other watchers hear of the change.
 */
export async function savePipelineAs(db: Db, save: PersonSave): Promise<PipelineRow> {
  const { workspaceId, id, existing, body, draft, actor } = save;
  const saved = await db.transaction().execute(async (trx) => {
    const row = await savePipeline(trx, { workspaceId, id, existing, body, draft, createdBy: actor.profileId });
    await completePipelineTasks(trx, row, actor.profileId);
    return row;
  });
  if (!existing) await ensureDefaultStore(db, workspaceId);
  else await notifyPipelineActivity(db, saved, `${actor.name} saved pipeline ${saved.name}${draft ? ' as a draft' : ''}.`, actor);
  return saved;
}

/** Thrown to end the validation's transaction: the check passed, and nothing it did may stay. */
class Rollback extends Error {}

/**
 * Validates as a save would, and saves nothing (the Matatika reference's validate pipeline): the
 * same rules on the same path. Resolving a plugin reference makes its data component, so the check
 * runs in a transaction that is always rolled back. A 400 with every field error, else it returns.
 */
export async function validatePipeline(db: Db, request: SaveRequest): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      await checkedInput(trx, request);
      throw new Rollback('validation only');
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
}
