import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QueryLineage } from './lineage';
import { datasetJobName, datasetsNamespace, extractorNamespace, jobNamespace, publishEvent, runEvent, runEventTypeOf, runIdOf, storeNamespace, type PublishFacts, type RunFacts } from './openLineage';

// The events written out in full, by hand (server/openLineage/events.schema.test.ts validates them
// against the published schema; these pin what each field says).

const PRODUCER = 'https://data.example.com/api';
const WORKSPACE = 'w1';
const JOB = 'B2F7E7B4-2C1D-4E0A-8F5E-1C2D3E4F5A6B';
const AT = '2026-11-29T12:00:00.000Z';
const FACETS = 'https://openlineage.io/spec/facets';
const SCHEMA_URL = `${FACETS}/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet`;

const facts = (status: string, more: Partial<RunFacts> = {}): RunFacts => ({
  workspaceId: WORKSPACE,
  jobId: JOB,
  pipelineName: 'github-to-store',
  status,
  eventTime: AT,
  inputs: [
    { extractor: 'tap-github', streams: ['commits', 'issues'] },
    { extractor: 'tap-csv', streams: ['people'] },
  ],
  outputs: [
    { table: 'github_commits', columns: [{ name: 'sha', type: 'text' }, { name: 'committed', type: null }], rowCount: 42 },
    { table: 'people', columns: [], rowCount: null },
  ],
  ...more,
});

const jobFacet = (jobType: string) => ({
  _producer: PRODUCER,
  _schemaURL: `${FACETS}/2-0-4/JobTypeJobFacet.json#/$defs/JobTypeJobFacet`,
  processingType: 'BATCH',
  integration: 'WORKSPACE_DATA_PLATFORM',
  jobType,
});

const RUN_INPUTS = [
  { namespace: 'workspace/w1/extractors/tap-github', name: 'commits' },
  { namespace: 'workspace/w1/extractors/tap-github', name: 'issues' },
  { namespace: 'workspace/w1/extractors/tap-csv', name: 'people' },
];

const RUN_OUTPUTS = [
  {
    namespace: 'workspace/w1/store',
    name: 'github_commits',
    facets: {
      schema: {
        _producer: PRODUCER,
        _schemaURL: SCHEMA_URL,
        fields: [
          { name: 'sha', type: 'text', ordinal_position: 1 },
          { name: 'committed', ordinal_position: 2 },
        ],
      },
    },
    outputFacets: {
      outputStatistics: { _producer: PRODUCER, _schemaURL: `${FACETS}/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet`, rowCount: 42 },
    },
  },
  { namespace: 'workspace/w1/store', name: 'people', facets: { schema: { _producer: PRODUCER, _schemaURL: SCHEMA_URL, fields: [] } } },
];

const runBase = (eventType: string) => ({
  eventType,
  eventTime: AT,
  producer: PRODUCER,
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  run: { runId: 'b2f7e7b4-2c1d-4e0a-8f5e-1c2d3e4f5a6b' },
  job: { namespace: 'workspace/w1', name: 'github-to-store', facets: { jobType: jobFacet('PIPELINE_RUN') } },
  inputs: RUN_INPUTS,
});

describe('runEventTypeOf', () => {
  it('maps each job status that is a run transition, and nothing else', () => {
    expect(['RUNNING', 'COMPLETE', 'ERROR', 'STOPPED', 'QUEUED', 'SKIPPED', '', 'running'].map(runEventTypeOf)).toEqual(['START', 'COMPLETE', 'FAIL', 'ABORT', undefined, undefined, undefined, undefined]);
  });
});

describe('namespaces and names', () => {
  it('keeps a workspace’s jobs, store, datasets and extractors apart', () => {
    expect([jobNamespace('w'), storeNamespace('w'), datasetsNamespace('w'), extractorNamespace('w', 'tap-x')]).toEqual(['workspace/w', 'workspace/w/store', 'workspace/w/datasets', 'workspace/w/extractors/tap-x']);
    expect(datasetJobName({ datasetId: 'd1', alias: 'sales' })).toBe('dataset.sales');
    expect(datasetJobName({ datasetId: 'd1', alias: null })).toBe('dataset.d1');
  });
});

/** FNV-1a over the id's UTF-16 code units, 64 bits, from a seed: the test's own reading of the derivation. */
function fnv(id: string, seed: bigint): string {
  let h = seed;
  for (const unit of Array.from({ length: id.length }, (_, i) => id.charCodeAt(i))) h = BigInt.asUintN(64, (h ^ BigInt(unit)) * 1099511628211n);
  return h.toString(16).padStart(16, '0');
}

function derivedUuid(id: string): string {
  const hex = fnv(id, 14695981039346656037n) + fnv(id, 0x84222325cbf29ce4n);
  const variant = ['8', '9', 'a', 'b'][Number.parseInt(hex[16]!, 16) % 4];
  return [hex.slice(0, 8), hex.slice(8, 12), `8${hex.slice(13, 16)}`, `${variant}${hex.slice(17, 20)}`, hex.slice(20, 32)].join('-');
}

describe('runIdOf', () => {
  it('is the job’s own UUID in lower case', () => {
    expect(runIdOf(JOB)).toBe('b2f7e7b4-2c1d-4e0a-8f5e-1c2d3e4f5a6b');
    expect(runIdOf('00000000-0000-0000-0000-000000000000')).toBe('00000000-0000-0000-0000-000000000000');
  });

  it('derives a version-8 UUID from any other id, FNV-1a 64 of it first (the published value for "a")', () => {
    // FNV-1a 64 of "a" is af63dc4c8601ec8c
    expect(runIdOf('a').startsWith('af63dc4c-8601-8c8c-')).toBe(true);
    expect(runIdOf('a')).toBe(derivedUuid('a'));
    // a UUID with anything around it is no UUID
    for (const id of [`x${JOB}`, `${JOB}x`, JOB.slice(1), JOB.replace(/-/g, ''), '']) expect(runIdOf(id)).toBe(derivedUuid(id));
  });

  it('derives the same UUID from the same id, each field of its length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (id) => {
        fc.pre(!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
        expect(runIdOf(id)).toBe(derivedUuid(id));
        expect(runIdOf(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('runEvent', () => {
  it('says what a starting run reads, and no outputs yet', () => {
    expect(runEvent(facts('RUNNING'), PRODUCER)).toEqual({ ...runBase('START'), outputs: [] });
  });

  it('says what an ended run loaded: each table’s columns in order, its type when known, its rows when counted', () => {
    expect(runEvent(facts('COMPLETE'), PRODUCER)).toEqual({ ...runBase('COMPLETE'), outputs: RUN_OUTPUTS });
    expect(runEvent(facts('STOPPED'), PRODUCER)).toEqual({ ...runBase('ABORT'), outputs: RUN_OUTPUTS });
  });

  it('gives a failed run its trimmed error message, or a sentence when it has none', () => {
    const failed = (message: string) => ({
      ...runBase('FAIL'),
      run: {
        runId: 'b2f7e7b4-2c1d-4e0a-8f5e-1c2d3e4f5a6b',
        facets: { errorMessage: { _producer: PRODUCER, _schemaURL: `${FACETS}/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet`, message, programmingLanguage: 'shell' } },
      },
      outputs: RUN_OUTPUTS,
    });
    expect(runEvent(facts('ERROR', { errorMessage: '  exit 1 \n' }), PRODUCER)).toEqual(failed('exit 1'));
    expect(runEvent(facts('ERROR', { errorMessage: ' \n ' }), PRODUCER)).toEqual(failed('The run failed.'));
    expect(runEvent(facts('ERROR', { errorMessage: null }), PRODUCER)).toEqual(failed('The run failed.'));
    expect(runEvent(facts('ERROR'), PRODUCER)).toEqual(failed('The run failed.'));
  });

  it('is no event for a status that is no transition', () => {
    expect(runEvent(facts('QUEUED'), PRODUCER)).toBeUndefined();
    expect(runEvent(facts('SKIPPED'), PRODUCER)).toBeUndefined();
  });
});

describe('publishEvent', () => {
  const lineage: QueryLineage = {
    tables: ['customers', 'orders'],
    columns: [
      { name: 'customer', kind: 'direct', sources: [{ table: 'customers', column: 'name', kind: 'direct' }], unresolved: [] },
      {
        name: 'total',
        kind: 'aggregation',
        sources: [
          { table: 'orders', column: 'amount', kind: 'aggregation' },
          { table: 'orders', column: 'tax', kind: 'transformation' },
        ],
        unresolved: [],
      },
      { name: 'n', kind: null, sources: [], unresolved: [] },
    ],
  };
  const publish = (more: Partial<PublishFacts> = {}): PublishFacts => ({
    workspaceId: WORKSPACE,
    datasetId: 'd1',
    alias: 'revenue',
    query: 'SELECT c.name AS customer, sum(o.amount) + o.tax AS total, count(*) AS n FROM …',
    eventTime: AT,
    lineage,
    tableColumns: new Map([['orders', [{ name: 'amount', type: 'numeric' }, { name: 'tax', type: null }]]]),
    ...more,
  });
  const field = (name: string, column: string, subtype: string) => ({ namespace: 'workspace/w1/store', name, field: column, transformations: [{ type: 'DIRECT', subtype }] });

  it('says the query, the tables it reads with their known columns, and the dataset with its columns’ lineage', () => {
    expect(publishEvent(publish(), PRODUCER)).toEqual({
      eventTime: AT,
      producer: PRODUCER,
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent',
      job: {
        namespace: 'workspace/w1',
        name: 'dataset.revenue',
        facets: {
          jobType: jobFacet('DATASET_QUERY'),
          sql: { _producer: PRODUCER, _schemaURL: `${FACETS}/1-1-0/SQLJobFacet.json#/$defs/SQLJobFacet`, query: 'SELECT c.name AS customer, sum(o.amount) + o.tax AS total, count(*) AS n FROM …', dialect: 'postgres' },
        },
      },
      inputs: [
        { namespace: 'workspace/w1/store', name: 'customers' },
        {
          namespace: 'workspace/w1/store',
          name: 'orders',
          facets: { schema: { _producer: PRODUCER, _schemaURL: SCHEMA_URL, fields: [{ name: 'amount', type: 'numeric', ordinal_position: 1 }, { name: 'tax', ordinal_position: 2 }] } },
        },
      ],
      outputs: [
        {
          namespace: 'workspace/w1/datasets',
          name: 'revenue',
          facets: {
            schema: {
              _producer: PRODUCER,
              _schemaURL: SCHEMA_URL,
              fields: [
                { name: 'customer', ordinal_position: 1 },
                { name: 'total', ordinal_position: 2 },
                { name: 'n', ordinal_position: 3 },
              ],
            },
            columnLineage: {
              _producer: PRODUCER,
              _schemaURL: `${FACETS}/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet`,
              fields: {
                customer: { inputFields: [field('customers', 'name', 'IDENTITY')] },
                total: { inputFields: [field('orders', 'amount', 'AGGREGATION'), field('orders', 'tax', 'TRANSFORMATION')] },
                n: { inputFields: [] },
              },
            },
          },
        },
      ],
    });
  });

  it('names the job and the dataset by the id when there is no alias', () => {
    const event = publishEvent(publish({ alias: null }), PRODUCER);
    expect([event.job.name, event.outputs[0]!.name]).toEqual(['dataset.d1', 'd1']);
  });
});
