import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import {
  DEFAULT_NOISE_SETTINGS,
  deliveryFor,
  MAX_ROUTES,
  noiseSettingsInputSchema,
  ROUTE_LEVELS,
  ROUTE_OBJECT_TYPES,
  routeFor,
  uniqueRoutes,
  withRoute,
  type EventFacts,
  type NoiseSettings,
} from './noiseControl';

const D = '00000000-0000-4000-8000-00000000000d';
const P = '00000000-0000-4000-8000-00000000000p'.replace('p', 'a');
const quiet: EventFacts = { datasetId: D, pipelineId: null, isError: false, direct: false };
const failed: EventFacts = { datasetId: null, pipelineId: P, isError: true, direct: false };

describe('deliveryFor', () => {
  it('delivers everything to the inbox by default', () => {
    expect(deliveryFor(DEFAULT_NOISE_SETTINGS, quiet)).toBe('INBOX');
    expect(deliveryFor(DEFAULT_NOISE_SETTINGS, failed)).toBe('INBOX');
  });

  it('routes per object: this dataset everything, that pipeline errors only', () => {
    const settings: NoiseSettings = {
      mentionsOnly: true,
      digest: false,
      routes: [
        { objectType: 'DATASET', objectId: D, level: 'ALL' },
        { objectType: 'PIPELINE', objectId: P, level: 'ERRORS' },
      ],
    };
    expect(deliveryFor(settings, quiet)).toBe('INBOX');
    expect(deliveryFor(settings, failed)).toBe('INBOX');
    expect(deliveryFor(settings, { ...failed, isError: false })).toBe('DROP');
    expect(deliveryFor(settings, { datasetId: null, pipelineId: null, isError: false, direct: false })).toBe('DROP');
  });

  it('keeps mentions and invitations in the inbox whatever the settings', () => {
    const muted: NoiseSettings = { mentionsOnly: true, digest: true, routes: [{ objectType: 'DATASET', objectId: D, level: 'NONE' }] };
    expect(deliveryFor(muted, { ...quiet, direct: true })).toBe('INBOX');
    expect(deliveryFor(muted, quiet)).toBe('DROP');
  });

  it('holds what is kept for the digest in digest mode', () => {
    expect(deliveryFor({ ...DEFAULT_NOISE_SETTINGS, digest: true }, quiet)).toBe('DIGEST');
  });

  it('prefers the dataset route to the pipeline route', () => {
    const routes = [
      { objectType: 'PIPELINE' as const, objectId: P, level: 'NONE' as const },
      { objectType: 'DATASET' as const, objectId: D, level: 'ALL' as const },
    ];
    expect(routeFor(routes, { ...quiet, pipelineId: P })?.objectType).toBe('DATASET');
  });

  const settingsArb = fc.record({
    mentionsOnly: fc.boolean(),
    digest: fc.boolean(),
    routes: fc.array(fc.record({ objectType: fc.constantFrom(...ROUTE_OBJECT_TYPES), objectId: fc.constantFrom(D, P, hostileString as never), level: fc.constantFrom(...ROUTE_LEVELS) })),
  });
  const eventArb = fc.record({ datasetId: fc.option(fc.oneof(fc.constant(D), hostileString)), pipelineId: fc.option(fc.oneof(fc.constant(P), hostileString)), isError: fc.boolean(), direct: fc.boolean() });

  it('never loses a direct event, never sends a digest item outside digest mode, never keeps what a NONE route mutes', () => {
    fc.assert(
      fc.property(settingsArb, eventArb, (settings, event) => {
        const delivery = deliveryFor(settings, event);
        if (event.direct) expect(delivery).toBe('INBOX');
        if (delivery === 'DIGEST') expect(settings.digest).toBe(true);
        if (!event.direct && routeFor(settings.routes, event)?.level === 'NONE') expect(delivery).toBe('DROP');
      }),
    );
  });
});

describe('noiseSettingsInputSchema', () => {
  it('accepts settings and refuses hostile bodies with field messages', () => {
    expect(noiseSettingsInputSchema.safeParse({ mentionsOnly: true, digest: false, routes: [{ objectType: 'DATASET', objectId: D, level: 'ERRORS' }] }).success).toBe(true);
    const bad = noiseSettingsInputSchema.safeParse({ mentionsOnly: 'yes', digest: false, routes: [{ objectType: 'TABLE', objectId: 'x', level: 'SOME' }] });
    expect(bad.success).toBe(false);
    const tooMany = Array.from({ length: MAX_ROUTES + 1 }, () => ({ objectType: 'DATASET', objectId: D, level: 'ALL' }));
    expect(noiseSettingsInputSchema.safeParse({ mentionsOnly: false, digest: false, routes: tooMany }).success).toBe(false);
    fc.assert(
      fc.property(fc.anything(), (body) => {
        noiseSettingsInputSchema.safeParse(body);
      }),
    );
    fc.assert(
      fc.property(hostileString, (text) => {
        expect(noiseSettingsInputSchema.safeParse({ mentionsOnly: false, digest: false, routes: [{ objectType: 'DATASET', objectId: text, level: 'ALL' }] }).success).toBe(false);
      }),
    );
  });
});

describe('withRoute and uniqueRoutes', () => {
  it('keeps one route per object', () => {
    const once = withRoute(DEFAULT_NOISE_SETTINGS, 'DATASET', D, 'ALL');
    const twice = withRoute(once, 'DATASET', D, 'ERRORS');
    expect(twice.routes).toEqual([{ objectType: 'DATASET', objectId: D, level: 'ERRORS' }]);
    expect(withRoute(twice, 'DATASET', D, undefined).routes).toEqual([]);
    expect(uniqueRoutes([...once.routes, ...twice.routes])).toEqual(twice.routes);
  });
});

describe('noise control, rule by rule', () => {
  it("matches a route on both the object's type and its id", () => {
    // a pipeline route does not catch a dataset that happens to share its id, nor the other way
    const sameId: NoiseSettings = { mentionsOnly: false, digest: false, routes: [{ objectType: 'PIPELINE', objectId: D, level: 'NONE' }] };
    expect(routeFor(sameId.routes, quiet)).toBeUndefined();
    expect(deliveryFor(sameId, quiet)).toBe('INBOX');
    const datasetRoute: NoiseSettings = { mentionsOnly: false, digest: false, routes: [{ objectType: 'DATASET', objectId: P, level: 'NONE' }] };
    expect(deliveryFor(datasetRoute, failed)).toBe('INBOX');
    // the same type with another id does not match either
    expect(routeFor([{ objectType: 'DATASET', objectId: P, level: 'ALL' }], quiet)).toBeUndefined();
  });

  it('falls back to the pipeline route when the event has a dataset without a route', () => {
    const routes = [{ objectType: 'PIPELINE' as const, objectId: P, level: 'NONE' as const }];
    expect(routeFor(routes, { datasetId: D, pipelineId: P, isError: false, direct: false })).toEqual(routes[0]);
  });

  it('matches no route for an event without an id, even a route whose id is empty', () => {
    const routes = [
      { objectType: 'DATASET' as const, objectId: '', level: 'NONE' as const },
      { objectType: 'PIPELINE' as const, objectId: '', level: 'NONE' as const },
    ];
    expect(routeFor(routes, { datasetId: '', pipelineId: '', isError: false, direct: false })).toBeUndefined();
    expect(routeFor(routes, { datasetId: null, isError: false, direct: false })).toBeUndefined();
  });

  it('keeps what each level keeps, with or without mentions-only mode', () => {
    for (const mentionsOnly of [false, true]) {
      const at = (level: 'ALL' | 'ERRORS' | 'NONE'): NoiseSettings => ({ mentionsOnly, digest: false, routes: [{ objectType: 'DATASET', objectId: D, level }] });
      expect(deliveryFor(at('ALL'), quiet)).toBe('INBOX');
      expect(deliveryFor(at('ALL'), { ...quiet, isError: true })).toBe('INBOX');
      expect(deliveryFor(at('ERRORS'), quiet)).toBe('DROP');
      expect(deliveryFor(at('ERRORS'), { ...quiet, isError: true })).toBe('INBOX');
      expect(deliveryFor(at('NONE'), quiet)).toBe('DROP');
      expect(deliveryFor(at('NONE'), { ...quiet, isError: true })).toBe('DROP');
    }
  });

  it('drops an unrouted event in mentions-only mode, even a failure, and holds a kept one for the digest', () => {
    expect(deliveryFor({ mentionsOnly: true, digest: false, routes: [] }, failed)).toBe('DROP');
    expect(deliveryFor({ mentionsOnly: true, digest: true, routes: [] }, { ...failed, direct: true })).toBe('INBOX');
    expect(deliveryFor({ mentionsOnly: false, digest: true, routes: [{ objectType: 'PIPELINE', objectId: P, level: 'ERRORS' }] }, failed)).toBe('DIGEST');
    expect(deliveryFor({ mentionsOnly: false, digest: true, routes: [{ objectType: 'PIPELINE', objectId: P, level: 'NONE' }] }, failed)).toBe('DROP');
  });

  it('keeps one route per object, in the place the object was first named', () => {
    expect(
      uniqueRoutes([
        { objectType: 'DATASET', objectId: D, level: 'ALL' },
        { objectType: 'PIPELINE', objectId: P, level: 'NONE' },
        { objectType: 'DATASET', objectId: D, level: 'ERRORS' },
        { objectType: 'PIPELINE', objectId: D, level: 'ALL' },
      ]),
    ).toEqual([
      { objectType: 'DATASET', objectId: D, level: 'ERRORS' },
      { objectType: 'PIPELINE', objectId: P, level: 'NONE' },
      { objectType: 'PIPELINE', objectId: D, level: 'ALL' },
    ]);
  });

  it("sets or removes one object's route and leaves the others and the modes alone", () => {
    const settings: NoiseSettings = {
      mentionsOnly: true,
      digest: true,
      routes: [
        { objectType: 'DATASET', objectId: D, level: 'ALL' },
        { objectType: 'PIPELINE', objectId: P, level: 'NONE' },
        { objectType: 'PIPELINE', objectId: D, level: 'ERRORS' },
      ],
    };
    expect(withRoute(settings, 'DATASET', D, 'NONE')).toEqual({
      mentionsOnly: true,
      digest: true,
      routes: [
        { objectType: 'PIPELINE', objectId: P, level: 'NONE' },
        { objectType: 'PIPELINE', objectId: D, level: 'ERRORS' },
        { objectType: 'DATASET', objectId: D, level: 'NONE' },
      ],
    });
    expect(withRoute(settings, 'PIPELINE', P, undefined)).toEqual({
      mentionsOnly: true,
      digest: true,
      routes: [
        { objectType: 'DATASET', objectId: D, level: 'ALL' },
        { objectType: 'PIPELINE', objectId: D, level: 'ERRORS' },
      ],
    });
    expect(withRoute(settings, 'DATASET', P, 'ALL').routes).toHaveLength(4);
  });
});
