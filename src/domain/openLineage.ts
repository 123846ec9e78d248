// OpenLineage events (issue 41, item 4): what a pipeline run and a dataset publish tell the rest of
// a data stack (Marquez, DataHub, OpenMetadata), as the published OpenLineage 2-0-2 schema says.
// Pure: the facts in (the server reads them), one event out; the clock, ids and the producer's URL
// are the caller's. Every event validates against the published schema (tests/fixtures/openlineage,
// checked by openLineage.test.ts for any names and any job state).
//
// Naming (docs/decisions.md, "OpenLineage naming"): one namespace per workspace, `workspace/<id>`,
// for its jobs; its store's tables are datasets of `workspace/<id>/store`, its published datasets
// of `workspace/<id>/datasets`, and an extractor's streams (the source a run reads) datasets of
// `workspace/<id>/extractors/<extractor>`.

import type { LineageKind, QueryLineage } from './lineage';

const OPENLINEAGE_SPEC = 'https://openlineage.io/spec/2-0-2/OpenLineage.json';
const FACETS = 'https://openlineage.io/spec/facets';

/** Each facet this module writes: its key and the `$id` of the published facet schema (its version). */
const FACET_SCHEMAS = {
  schema: `${FACETS}/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet`,
  columnLineage: `${FACETS}/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet`,
  outputStatistics: `${FACETS}/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet`,
  sql: `${FACETS}/1-1-0/SQLJobFacet.json#/$defs/SQLJobFacet`,
  jobType: `${FACETS}/2-0-4/JobTypeJobFacet.json#/$defs/JobTypeJobFacet`,
  errorMessage: `${FACETS}/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet`,
} as const;

type RunEventType = 'START' | 'COMPLETE' | 'FAIL' | 'ABORT';

/** A job's status → the run transition it reports; a status that is no transition of a run that ran (QUEUED, SKIPPED) → undefined. */
export function runEventTypeOf(status: string): RunEventType | undefined {
  switch (status) {
    case 'RUNNING':
      return 'START';
    case 'COMPLETE':
      return 'COMPLETE';
    case 'ERROR':
      return 'FAIL';
    case 'STOPPED':
      return 'ABORT';
    default:
      return undefined;
  }
}

interface Facet {
  readonly _producer: string;
  readonly _schemaURL: string;
  readonly [field: string]: unknown;
}

interface OpenLineageDataset {
  namespace: string;
  name: string;
  facets?: Record<string, Facet>;
  outputFacets?: Record<string, Facet>;
}

interface OpenLineageJob {
  namespace: string;
  name: string;
  facets: Record<string, Facet>;
}

export interface RunEvent {
  eventType: RunEventType;
  eventTime: string;
  producer: string;
  schemaURL: string;
  run: { runId: string; facets?: Record<string, Facet> };
  job: OpenLineageJob;
  inputs: OpenLineageDataset[];
  outputs: OpenLineageDataset[];
}

export interface JobEvent {
  eventTime: string;
  producer: string;
  schemaURL: string;
  job: OpenLineageJob;
  inputs: OpenLineageDataset[];
  outputs: OpenLineageDataset[];
}

export type OpenLineageEvent = RunEvent | JobEvent;

export interface ColumnType {
  readonly name: string;
  /** the store's type name; null when unknown */
  readonly type: string | null;
}

/** What a pipeline run's event says, as the server knows it at one status change. */
export interface RunFacts {
  readonly workspaceId: string;
  readonly jobId: string;
  readonly pipelineName: string;
  readonly status: string;
  /** when the status changed, ISO 8601 with its zone */
  readonly eventTime: string;
  /** the run's closing log line or reason, for a FAIL */
  readonly errorMessage?: string | null;
  /** the pipeline's extractors and the streams each read (rows per stream, else its selected streams) */
  readonly inputs: readonly { readonly extractor: string; readonly streams: readonly string[] }[];
  /** the store tables the run loaded: columns and types as the store has them, rows loaded */
  readonly outputs: readonly { readonly table: string; readonly columns: readonly ColumnType[]; readonly rowCount: number | null }[];
}

/** What a dataset publish's event says: its query, the lineage of its columns and the store's columns of the tables read. */
export interface PublishFacts {
  readonly workspaceId: string;
  readonly datasetId: string;
  readonly alias: string | null;
  readonly query: string;
  readonly eventTime: string;
  readonly lineage: QueryLineage;
  readonly tableColumns: ReadonlyMap<string, readonly ColumnType[]>;
}

export const jobNamespace = (workspaceId: string): string => `workspace/${workspaceId}`;
export const storeNamespace = (workspaceId: string): string => `workspace/${workspaceId}/store`;
export const datasetsNamespace = (workspaceId: string): string => `workspace/${workspaceId}/datasets`;
export const extractorNamespace = (workspaceId: string, extractor: string): string => `workspace/${workspaceId}/extractors/${extractor}`;

/** The job a dataset's query is: named by its alias (what a person reads), else its id. */
export const datasetJobName = (dataset: { datasetId: string; alias: string | null }): string => `dataset.${dataset.alias ?? dataset.datasetId}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The run id of a job: the job's own id when it is a UUID (every job's is), else a UUID derived
 * from it (two 64-bit FNV-1a hashes), the same for the same id so a run's events share it.
 */
export function runIdOf(jobId: string): string {
  if (UUID.test(jobId)) return jobId.toLowerCase();
  const hash = (seed: bigint): string => {
    let h = seed;
    for (let i = 0; i < jobId.length; i++) {
      h ^= BigInt(jobId.charCodeAt(i));
      h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
    }
    return h.toString(16).padStart(16, '0');
  };
  const hex = hash(0xcbf29ce484222325n) + hash(0x84222325cbf29ce4n);
  // version 8 (custom) and the RFC 9562 variant, so it is a well-formed UUID
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const facet = (producer: string, key: keyof typeof FACET_SCHEMAS, fields: Record<string, unknown>): Facet => ({ _producer: producer, _schemaURL: FACET_SCHEMAS[key], ...fields });

function schemaFacet(producer: string, columns: readonly ColumnType[]): Facet {
  return facet(producer, 'schema', {
    fields: columns.map((c, i) => ({ name: c.name, ...(c.type === null ? {} : { type: c.type }), ordinal_position: i + 1 })),
  });
}

/** OpenLineage's transformation of one lineage kind: every kind reads the value (DIRECT); the subtype says how. */
const TRANSFORMATION: Readonly<Record<LineageKind, { type: 'DIRECT'; subtype: string }>> = {
  direct: { type: 'DIRECT', subtype: 'IDENTITY' },
  transformation: { type: 'DIRECT', subtype: 'TRANSFORMATION' },
  aggregation: { type: 'DIRECT', subtype: 'AGGREGATION' },
};

const jobTypeFacet = (producer: string, jobType: string): Facet => facet(producer, 'jobType', { processingType: 'BATCH', integration: 'WORKSPACE_DATA_PLATFORM', jobType });

/** The event of one status change of a pipeline run; undefined for a status that is no run transition. */
export function runEvent(facts: RunFacts, producer: string): RunEvent | undefined {
  const eventType = runEventTypeOf(facts.status);
  if (eventType === undefined) return undefined;
  const runFacets: Record<string, Facet> =
    eventType === 'FAIL' ? { errorMessage: facet(producer, 'errorMessage', { message: facts.errorMessage?.trim() || 'The run failed.', programmingLanguage: 'shell' }) } : {};
  // the tables a run loads are known once it has ended; START says what it reads
  const ended = eventType !== 'START';
  return {
    eventType,
    eventTime: facts.eventTime,
    producer,
    schemaURL: `${OPENLINEAGE_SPEC}#/$defs/RunEvent`,
    run: { runId: runIdOf(facts.jobId), ...(Object.keys(runFacets).length > 0 ? { facets: runFacets } : {}) },
    job: { namespace: jobNamespace(facts.workspaceId), name: facts.pipelineName, facets: { jobType: jobTypeFacet(producer, 'PIPELINE_RUN') } },
    inputs: facts.inputs.flatMap((input) => input.streams.map((stream) => ({ namespace: extractorNamespace(facts.workspaceId, input.extractor), name: stream }))),
    outputs: ended
      ? facts.outputs.map((output) => ({
          namespace: storeNamespace(facts.workspaceId),
          name: output.table,
          facets: { schema: schemaFacet(producer, output.columns) },
          ...(output.rowCount === null ? {} : { outputFacets: { outputStatistics: facet(producer, 'outputStatistics', { rowCount: output.rowCount }) } }),
        }))
      : [],
  };
}

/** The job event of a dataset publish: its query (the `sql` facet), the store tables it reads, the dataset with its columns' lineage. */
export function publishEvent(facts: PublishFacts, producer: string): JobEvent {
  const store = storeNamespace(facts.workspaceId);
  const columnLineage = Object.fromEntries(
    facts.lineage.columns.map((column) => [
      column.name,
      { inputFields: column.sources.map((s) => ({ namespace: store, name: s.table, field: s.column, transformations: [TRANSFORMATION[s.kind]] })) },
    ]),
  );
  // a query may name a column twice (`SELECT a, a`): the facet keys by name, the schema keeps both
  const outputColumns = facts.lineage.columns.map((c) => ({ name: c.name, type: null }));
  return {
    eventTime: facts.eventTime,
    producer,
    schemaURL: `${OPENLINEAGE_SPEC}#/$defs/JobEvent`,
    job: {
      namespace: jobNamespace(facts.workspaceId),
      name: datasetJobName(facts),
      facets: { jobType: jobTypeFacet(producer, 'DATASET_QUERY'), sql: facet(producer, 'sql', { query: facts.query, dialect: 'postgres' }) },
    },
    inputs: facts.lineage.tables.map((table) => {
      const columns = facts.tableColumns.get(table);
      return { namespace: store, name: table, ...(columns === undefined ? {} : { facets: { schema: schemaFacet(producer, columns) } }) };
    }),
    outputs: [
      {
        namespace: datasetsNamespace(facts.workspaceId),
        name: facts.alias ?? facts.datasetId,
        facets: { schema: schemaFacet(producer, outputColumns), columnLineage: facet(producer, 'columnLineage', { fields: columnLineage }) },
      },
    ],
  };
}
