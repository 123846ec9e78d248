import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../../src/domain/hostile.fixture';
import { LINEAGE_KINDS, type QueryLineage } from '../../src/domain/lineage';
import { publishEvent, runEvent, runEventTypeOf, runIdOf, type PublishFacts, type RunFacts } from '../../src/domain/openLineage';
import { openLineageErrors } from '../../tests/fixtures/openlineage/validate';

// The events src/domain/openLineage.ts builds, validated against the published OpenLineage schema
// (tests/fixtures/openlineage, verbatim): for the spec's examples and for any names, any job
// state and any lineage. It lives beside the server because the domain imports nothing outside
// itself, and the schema's validator is a test fixture.

const PRODUCER = 'https://data.example.com/api';
const WORKSPACE = '0d4c1f0e-7a53-4c4b-9a53-8f3b2a6c9e11';
const JOB = 'b2f7e7b4-2c1d-4e0a-8f5e-1c2d3e4f5a6b';
const AT = '2026-11-29T12:00:00.000Z';

const facts = (status: string, more: Partial<RunFacts> = {}): RunFacts => ({
  workspaceId: WORKSPACE,
  jobId: JOB,
  pipelineName: 'github-to-store',
  status,
  eventTime: AT,
  inputs: [{ extractor: 'tap-github', streams: ['commits', 'issues'] }],
  outputs: [{ table: 'github_commits', columns: [{ name: 'sha', type: 'text' }, { name: 'committed', type: 'timestamp with time zone' }], rowCount: 42 }],
  ...more,
});

const lineage: QueryLineage = {
  tables: ['orders'],
  columns: [
    { name: 'customer', kind: 'direct', sources: [{ table: 'orders', column: 'customer', kind: 'direct' }], unresolved: [] },
    { name: 'total', kind: 'aggregation', sources: [{ table: 'orders', column: 'amount', kind: 'aggregation' }], unresolved: [] },
    { name: 'n', kind: null, sources: [], unresolved: [] },
  ],
};

const publish = (more: Partial<PublishFacts> = {}): PublishFacts => ({
  workspaceId: WORKSPACE,
  datasetId: '5e0f3a1b-9c8d-4e7f-a6b5-c4d3e2f1a0b9',
  alias: 'revenue-by-customer',
  query: 'SELECT customer, sum(amount) AS total, count(*) AS n FROM orders GROUP BY customer',
  eventTime: AT,
  lineage,
  tableColumns: new Map([['orders', [{ name: 'customer', type: 'text' }, { name: 'amount', type: 'numeric' }]]]),
  ...more,
});

describe('runEventTypeOf', () => {
  it('maps a job status to its run transition, and no other status', () => {
    expect(['RUNNING', 'COMPLETE', 'ERROR', 'STOPPED', 'QUEUED', 'SKIPPED'].map(runEventTypeOf)).toEqual(['START', 'COMPLETE', 'FAIL', 'ABORT', undefined, undefined]);
  });
});

describe('runIdOf', () => {
  it("is a job's own UUID, lower-cased", () => {
    expect(runIdOf(JOB.toUpperCase())).toBe(JOB);
  });

  it('derives the same well-formed UUID from the same other id, and different ones from different ids', () => {
    fc.assert(
      fc.property(hostileString, hostileString, (a, b) => {
        expect(runIdOf(a)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(runIdOf(a)).toBe(runIdOf(a));
        if (a !== b) expect(runIdOf(a)).not.toBe(runIdOf(b));
      }),
    );
  });
});

describe('runEvent', () => {
  it('says START with what the run reads, before it has loaded anything', () => {
    const event = runEvent(facts('RUNNING'), PRODUCER)!;
    expect(openLineageErrors(event)).toEqual([]);
    expect(event).toMatchObject({ eventType: 'START', eventTime: AT, run: { runId: JOB }, job: { namespace: `workspace/${WORKSPACE}`, name: 'github-to-store' }, outputs: [] });
    expect(event.inputs).toEqual([
      { namespace: `workspace/${WORKSPACE}/extractors/tap-github`, name: 'commits' },
      { namespace: `workspace/${WORKSPACE}/extractors/tap-github`, name: 'issues' },
    ]);
  });

  it('says COMPLETE with the tables loaded, their columns and types (schema) and rows (outputStatistics)', () => {
    const event = runEvent(facts('COMPLETE'), PRODUCER)!;
    expect(openLineageErrors(event)).toEqual([]);
    expect(event.outputs).toEqual([
      {
        namespace: `workspace/${WORKSPACE}/store`,
        name: 'github_commits',
        facets: {
          schema: expect.objectContaining({ fields: [{ name: 'sha', type: 'text', ordinal_position: 1 }, { name: 'committed', type: 'timestamp with time zone', ordinal_position: 2 }] }),
        },
        outputFacets: { outputStatistics: expect.objectContaining({ rowCount: 42 }) },
      },
    ]);
  });

  it('says FAIL with the error message, and ABORT for a stopped run', () => {
    const failed = runEvent(facts('ERROR', { errorMessage: 'tap-github exited with code 1' }), PRODUCER)!;
    expect(openLineageErrors(failed)).toEqual([]);
    expect(failed.run.facets?.['errorMessage']).toMatchObject({ message: 'tap-github exited with code 1' });
    const aborted = runEvent(facts('STOPPED'), PRODUCER)!;
    expect(openLineageErrors(aborted)).toEqual([]);
    expect(aborted.eventType).toBe('ABORT');
  });

  it('builds nothing for a status that is no run transition', () => {
    expect(runEvent(facts('QUEUED'), PRODUCER)).toBeUndefined();
  });

  it('validates against the published schema for any names, rows and job state', () => {
    const column = fc.record({ name: hostileString, type: fc.option(hostileString, { nil: null }) });
    fc.assert(
      fc.property(
        fc.record({
          workspaceId: hostileString,
          jobId: hostileString,
          pipelineName: hostileString,
          status: fc.oneof(fc.constantFrom('RUNNING', 'COMPLETE', 'ERROR', 'STOPPED'), hostileString),
          eventTime: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
          errorMessage: fc.option(hostileString, { nil: null }),
          inputs: fc.array(fc.record({ extractor: hostileString, streams: fc.array(hostileString, { maxLength: 4 }) }), { maxLength: 3 }),
          outputs: fc.array(fc.record({ table: hostileString, columns: fc.array(column, { maxLength: 4 }), rowCount: fc.option(fc.nat(), { nil: null }) }), { maxLength: 3 }),
        }),
        (run) => {
          const event = runEvent(run, PRODUCER);
          if (runEventTypeOf(run.status) === undefined) expect(event).toBeUndefined();
          else expect(openLineageErrors(JSON.parse(JSON.stringify(event)))).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('publishEvent', () => {
  it("is a job event (no run) of the dataset's query, reading its tables, writing the dataset with its columns' lineage", () => {
    const event = publishEvent(publish(), PRODUCER);
    expect(openLineageErrors(event)).toEqual([]);
    expect(event).not.toHaveProperty('run');
    expect(event.job).toMatchObject({ namespace: `workspace/${WORKSPACE}`, name: 'dataset.revenue-by-customer', facets: { sql: expect.objectContaining({ query: publish().query, dialect: 'postgres' }) } });
    expect(event.inputs).toEqual([{ namespace: `workspace/${WORKSPACE}/store`, name: 'orders', facets: { schema: expect.objectContaining({ fields: [{ name: 'customer', type: 'text', ordinal_position: 1 }, { name: 'amount', type: 'numeric', ordinal_position: 2 }] }) } }]);
    expect(event.outputs[0]!.facets!['columnLineage']).toMatchObject({
      fields: {
        customer: { inputFields: [{ namespace: `workspace/${WORKSPACE}/store`, name: 'orders', field: 'customer', transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }] }] },
        total: { inputFields: [{ name: 'orders', field: 'amount', transformations: [{ type: 'DIRECT', subtype: 'AGGREGATION' }] }] },
        n: { inputFields: [] },
      },
    });
  });

  it('names the dataset by its id when it has no alias, and leaves out the schema of a table the store does not have', () => {
    const event = publishEvent(publish({ alias: null, tableColumns: new Map() }), PRODUCER);
    expect(openLineageErrors(event)).toEqual([]);
    expect(event.job.name).toBe('dataset.5e0f3a1b-9c8d-4e7f-a6b5-c4d3e2f1a0b9');
    expect(event.inputs).toEqual([{ namespace: `workspace/${WORKSPACE}/store`, name: 'orders' }]);
  });

  it('validates against the published schema for any names, query and lineage', () => {
    const source = fc.record({ table: hostileString, column: hostileString, kind: fc.constantFrom(...LINEAGE_KINDS) });
    const columns = fc.array(fc.record({ name: hostileString, kind: fc.option(fc.constantFrom(...LINEAGE_KINDS), { nil: null }), sources: fc.array(source, { maxLength: 3 }), unresolved: fc.array(hostileString, { maxLength: 2 }) }), { maxLength: 5 });
    fc.assert(
      fc.property(hostileString, hostileString, fc.option(hostileString, { nil: null }), hostileString, columns, fc.array(hostileString, { maxLength: 4 }), (workspaceId, datasetId, alias, query, cols, tables) => {
        const event = publishEvent(
          { workspaceId, datasetId, alias, query, eventTime: AT, lineage: { columns: cols, tables }, tableColumns: new Map(tables.map((t) => [t, [{ name: t, type: null }]])) },
          PRODUCER,
        );
        expect(openLineageErrors(JSON.parse(JSON.stringify(event)))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the validator', () => {
  it('refuses an event without its required fields, and a facet that breaks its own schema', () => {
    const event = runEvent(facts('COMPLETE'), PRODUCER)!;
    const { eventTime: _, ...noTime } = event;
    expect(openLineageErrors(noTime)).not.toEqual([]);
    expect(openLineageErrors({ ...event, run: { runId: 'not-a-uuid' } })).not.toEqual([]);
    const badSql = publishEvent(publish(), PRODUCER);
    expect(openLineageErrors({ ...badSql, job: { ...badSql.job, facets: { sql: { _producer: PRODUCER, _schemaURL: 'https://x.test/', dialect: 'postgres' } } } })).toEqual([expect.stringContaining('sql')]);
    expect(openLineageErrors({ ...badSql, job: { ...badSql.job, facets: { invented: { _producer: PRODUCER, _schemaURL: 'https://x.test/' } } } })).toEqual([expect.stringContaining('no published schema')]);
  });
});
