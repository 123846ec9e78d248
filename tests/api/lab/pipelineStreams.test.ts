import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REL } from '../../../src/domain/relations';
import { pipelineStreamsSchema } from '../../../src/domain/resources';
import { listDataComponents } from '../../../server/repositories/dataComponents';
import { saveCatalog } from '../../../server/repositories/streamCatalogs';
import { DEMO } from '../../../server/seed';
import { extractorKeys } from '../../../server/services/pipelineStreams';
import { expectError, hasLink, linkOf, type ApiClient } from '../helpers/http';
import { login, startWorld, type World } from '../helpers/world';
import { demoPipeline, outsiderWorkspace, type Body } from './labWorld';

// A pipeline's streams through its links (issue 37, item 6): what its extractors' discovery listed
// under the present settings, the `select` rules in force, and the 'verify pipeline' link that
// discovers them. No runner runs here (tests/runner/plugins.test.ts runs the discovery): the test
// keeps a catalog as the runner's bridge does, under the key of the settings the pipeline had.

let world: World;
let owner: ApiClient;
let outsiderId: string;

beforeAll(async () => {
  world = await startWorld();
  await Promise.all([login(world.owner), login(world.member)]);
  outsiderId = await outsiderWorkspace(world);
  owner = world.owner.api;
});
afterAll(() => world?.close());

const STREAMS = [
  { name: 'sales', properties: [{ name: 'id', type: 'integer', automatic: true }, { name: 'amount', type: 'number', automatic: false }] },
  { name: 'customers', properties: [{ name: 'id', type: 'integer', automatic: true }] },
];

/** Keeps STREAMS as tap-demo's discovery under the pipeline's present settings, as a verify job of `workspaceId` would. */
async function discovered(pipeline: Body, workspaceId: string = DEMO.workspaceId): Promise<void> {
  const saved = await world.server.db.selectFrom('pipelines').select(['data_components', 'properties']).where('id', '=', pipeline.id as string).executeTakeFirstOrThrow();
  const components = (await listDataComponents(world.server.db, DEMO.workspaceId)).filter((c) => saved.data_components.includes(c.name));
  for (const { key } of extractorKeys(components, saved.properties)) {
    await saveCatalog(world.server.db, { workspaceId, key, streams: STREAMS, jobId: '00000000-0000-4000-8000-000000000001' });
  }
}

const streamsOf = async (pipeline: Body) => {
  const answer = await owner.get(linkOf(pipeline, REL.streams));
  expect(answer.status).toBe(200);
  expect(pipelineStreamsSchema.safeParse(answer.body).success).toBe(true);
  return answer.body as Body & { extractors: Array<Record<string, unknown>> };
};

describe("a pipeline's streams", () => {
  it('lists each extractor as not discovered yet, offering the verify link that discovers it', async () => {
    const pipeline = await demoPipeline(owner, 'Streams not yet discovered');
    const streams = await streamsOf(pipeline);
    expect(streams.extractors).toEqual([{ name: 'tap-demo', discovered: null, streams: null, select: null }]);
    expect(linkOf(streams, REL.verifyPipeline)).toBe(linkOf(pipeline, REL.verifyPipeline));
  });

  it("shows what discovery listed under the pipeline's settings, and asks again once a setting changes", async () => {
    const pipeline = await demoPipeline(owner, 'Streams discovered', { properties: { 'tap-demo.scale': 2 } });
    await discovered(pipeline);
    const [extractor] = (await streamsOf(pipeline)).extractors;
    expect(extractor?.streams).toEqual(STREAMS);
    expect(typeof extractor?.discovered).toBe('string');

    // the same settings in another pipeline: the same catalog, no second discovery needed
    const twin = await demoPipeline(owner, 'Same settings, same streams', { properties: { 'tap-demo.scale': 2 } });
    expect((await streamsOf(twin)).extractors[0]?.streams).toEqual(STREAMS);

    const changed = await owner.call('PUT', linkOf(pipeline, REL.updatePipeline), { name: 'Streams discovered', dataComponents: ['extractors/tap-demo', 'loaders/target-store'], properties: { 'tap-demo.scale': 3 } });
    expect(changed.status).toBe(200);
    expect((await streamsOf(changed.body as Body)).extractors[0]).toMatchObject({ discovered: null, streams: null });
  });

  it('a change of selection alone keeps the streams, and shows the rules in force', async () => {
    const pipeline = await demoPipeline(owner, 'Streams selected');
    await discovered(pipeline);
    const select = ['sales.*', '!sales.amount'];
    const changed = await owner.call('PUT', linkOf(pipeline, REL.updatePipeline), { name: 'Streams selected', dataComponents: ['extractors/tap-demo', 'loaders/target-store'], properties: { 'tap-demo._select': JSON.stringify(select) } });
    expect(changed.status).toBe(200);
    const [extractor] = (await streamsOf(changed.body as Body)).extractors;
    expect(extractor).toMatchObject({ streams: STREAMS, select });
  });

  it("refuses a selection that is not JSON text (400 naming the field), and keeps the pipeline's", async () => {
    const pipeline = await demoPipeline(owner, 'Bad selection');
    const refused = await owner.call('PUT', linkOf(pipeline, REL.updatePipeline), { name: 'Bad selection', dataComponents: ['extractors/tap-demo', 'loaders/target-store'], properties: { 'tap-demo._select': 'sales.*' } });
    expectError(refused, 400);
    expect(JSON.stringify(refused.body)).toContain('properties.tap-demo._select');
    expect((await streamsOf(pipeline)).extractors[0]?.select).toBeNull();
  });

  it("is an admin's: a member gets no link and a 403, another workspace's admin a 404", async () => {
    const pipeline = await demoPipeline(owner, 'Streams not theirs');
    await discovered(pipeline);
    const asMember = (await world.member.api.get(`/api/pipelines/${pipeline.id as string}`)).body as Body;
    expect(hasLink(asMember, REL.streams)).toBe(false);
    expectError(await world.member.api.get(linkOf(pipeline, REL.streams)), 403);
    expectError(await world.outsider.api.get(linkOf(pipeline, REL.streams)), 404);
  });

  it("never shows another workspace's catalog, even under the same settings", async () => {
    const pipeline = await demoPipeline(owner, 'Streams of our own', { properties: { 'tap-demo.scale': 7 } });
    // the same plugin and settings, discovered in the outsider's workspace only
    await discovered(pipeline, outsiderId);
    expect((await streamsOf(pipeline)).extractors[0]?.streams).toBeNull();
  });

  it('answers 404 for a pipeline id that names nothing, and for one that is not an id', async () => {
    expectError(await owner.get('/api/pipelines/00000000-0000-4000-8000-000000000000/streams'), 404);
    expectError(await owner.get('/api/pipelines/not-an-id/streams'), 404);
  });
});
