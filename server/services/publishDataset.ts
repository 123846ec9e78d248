import type { DatasetPatch, DatasetWrite } from '../../src/domain/resources';
import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import type { DatasetRow } from '../repositories/datasets';
import { channelInWorkspace, createDataset, datasetIdByAlias, datasetWorkspaceOf, updateDataset, type DatasetFields } from '../repositories/datasetWrites';
import { isUniqueViolation, isUuid, newId } from '../repositories/ids';
import { recordPublishEvent } from '../repositories/openLineage';
import { checkQuery, QueryRefused } from '../stores/queryGuard';
import { rejectFieldErrors } from '../http/validation';
import * as setupTasks from '../setupTasks';

// Publishing (the Matatika reference: POST to the workspace's datasets, an existing id or alias
// is replaced) and editing (PATCH, any subset) share one set of rules: a title, an alias unique in
// the workspace, visualisation and metadata that are JSON objects, a query the SQL check accepts,
// a channel of the same workspace. Every broken rule is a field error of one 400.

const OBJECT = 'dataset';

function jsonObjectError(text: string | null | undefined): string | undefined {
  if (text === undefined || text === null || text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'must be a JSON object';
  } catch {
    return 'must be a JSON object';
  }
}

const blankToNull = (text: string | null | undefined): string | null | undefined => (text === undefined ? undefined : text === null || text.trim() === '' ? null : text);

/** The body's fields checked and in stored form; `selfId` is the dataset being replaced or edited. */
async function validated(db: Db, workspaceId: string, body: DatasetPatch, selfId: string | undefined): Promise<DatasetFields> {
  const alias = body.alias === undefined ? undefined : (blankToNull(body.alias?.trim()) ?? null);
  const query = blankToNull(body.query);
  const errors: Record<string, string | undefined> = {};
  if (body.title !== undefined && body.title.trim() === '') errors.title = 'Title is required';
  if (alias) {
    const owner = await datasetIdByAlias(db, workspaceId, alias);
    if (owner !== undefined && owner !== selfId) errors.alias = 'Alias is already used by another dataset of this workspace';
  }
  errors.visualisation = jsonObjectError(body.visualisation);
  errors.metadata = jsonObjectError(body.metadata);
  if (query) {
    try {
      await checkQuery(query);
    } catch (error) {
      if (!(error instanceof QueryRefused)) throw error;
      errors.query = error.message;
    }
  }
  if (body.channelId !== undefined && body.channelId !== null && !(isUuid(body.channelId) && (await channelInWorkspace(db, workspaceId, body.channelId)))) {
    errors.channelId = 'is not a channel of this workspace';
  }
  rejectFieldErrors(OBJECT, errors);
  const fields: DatasetFields = {
    alias,
    title: body.title?.trim(),
    description: body.description,
    questions: body.questions,
    query,
    raw_data: body.rawData,
    visualisation: blankToNull(body.visualisation),
    metadata: blankToNull(body.metadata),
    channel_id: body.channelId,
    continuous_poll: body.continuousPoll ?? undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** A race on the alias (two publishes at once) is the same field error as a taken alias. */
async function aliasSafe<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(`Validation failed for object='${OBJECT}'`, [{ field: 'alias', objectName: OBJECT, defaultMessage: 'Alias is already used by another dataset of this workspace' }]);
    throw error;
  }
}

/**
 * Creates (under a new id), or replaces the dataset the body names by id (of this workspace) or else by alias. A
 * replace writes every field: what the body leaves out is cleared; tags change only when given.
 */
async function publishDataset(db: Db, workspaceId: string, body: DatasetWrite): Promise<{ id: string; created: boolean }> {
  let target: string | undefined;
  if (body.id !== undefined) {
    // An id names a dataset of this workspace to replace; it never chooses a new dataset's id. So an
    // id of another workspace's dataset is answered as one that names nothing, and a stranger cannot
    // tell the two apart (docs/decisions.md, "Existence oracles (issue 36)").
    if (!isUuid(body.id) || (await datasetWorkspaceOf(db, body.id)) !== workspaceId) rejectFieldErrors(OBJECT, { id: 'names no dataset of this workspace' });
    target = body.id;
  } else if (body.alias) {
    target = await datasetIdByAlias(db, workspaceId, body.alias.trim());
  }
  const fields = await validated(db, workspaceId, body, target);
  const full = {
    alias: null,
    description: null,
    questions: null,
    query: null,
    raw_data: null,
    visualisation: null,
    metadata: null,
    channel_id: null,
    continuous_poll: false,
    ...fields,
    title: fields.title ?? body.title,
  };
  const tags = body.tags ?? undefined;
  if (target !== undefined) {
    const id = target;
    await aliasSafe(() => updateDataset(db, id, full, tags));
    return { id, created: false };
  }
  const id = newId();
  await aliasSafe(() => createDataset(db, id, workspaceId, full, tags));
  return { id, created: true };
}

/**
 * Publishes in the caller's transaction and completes the workspace's 'publish' setup task with
 * it, never without it: the publish API's transaction and a deployment's both do this.
 */
export async function publishWithTask(trx: Db, workspaceId: string, body: DatasetWrite, profileId: string | null): Promise<{ id: string; created: boolean }> {
  const published = await publishDataset(trx, workspaceId, body);
  await setupTasks.datasetPublished(trx, workspaceId, published.id, profileId);
  // OpenLineage: the publish's job event, sent later by the sender (issue 41)
  await recordPublishEvent(trx, workspaceId, published.id);
  return published;
}

/** 'publish dataset' for a person: the publish and its setup task in one transaction. */
export async function publishDatasetAs(db: Db, workspaceId: string, body: DatasetWrite, profileId: string): Promise<{ id: string; created: boolean }> {
  return db.transaction().execute((trx) => publishWithTask(trx, workspaceId, body, profileId));
}

export async function patchDataset(db: Db, dataset: DatasetRow, body: DatasetPatch): Promise<void> {
  if (body.id !== undefined && body.id !== dataset.id) rejectFieldErrors(OBJECT, { id: 'cannot change' });
  const fields = await validated(db, dataset.workspace_id, body, dataset.id);
  // an edit that changes the query or the alias (the job's name) is a new publish of its job
  const republished = (fields.query !== undefined && fields.query !== dataset.query) || (fields.alias !== undefined && fields.alias !== dataset.alias);
  await db.transaction().execute(async (trx) => {
    await aliasSafe(() => updateDataset(trx, dataset.id, fields, body.tags ?? undefined));
    if (republished) await recordPublishEvent(trx, dataset.workspace_id, dataset.id);
  });
}
