import { z } from 'zod';

// Noise control of the notifications inbox (issue 12, Beyond). One pure rule decides what becomes
// of one event for one recipient; server/notifications/notify.ts applies it to every event, so no
// producer of notifications can forget it.

export const ROUTE_OBJECT_TYPES = ['DATASET', 'PIPELINE'] as const;
export const ROUTE_LEVELS = ['ALL', 'ERRORS', 'NONE'] as const;
export type RouteObjectType = (typeof ROUTE_OBJECT_TYPES)[number];
export type RouteLevel = (typeof ROUTE_LEVELS)[number];

export const ROUTE_LEVEL_TEXT: Record<RouteLevel, string> = { ALL: 'Everything', ERRORS: 'Errors only', NONE: 'Nothing' };

export interface NotificationRoute {
  readonly objectType: RouteObjectType;
  readonly objectId: string;
  readonly level: RouteLevel;
}

export interface NoiseSettings {
  readonly mentionsOnly: boolean;
  readonly digest: boolean;
  readonly routes: readonly NotificationRoute[];
}

export const DEFAULT_NOISE_SETTINGS: NoiseSettings = { mentionsOnly: false, digest: false, routes: [] };

/** What one event is, as far as routing one recipient goes. */
export interface EventFacts {
  readonly datasetId?: string | null;
  readonly pipelineId?: string | null;
  /** a failure that needs a person: a dataset alert, a job that ended ERROR or STOPPED */
  readonly isError: boolean;
  /** addressed to this recipient in person: they were mentioned or invited */
  readonly direct: boolean;
}

export type Delivery = 'INBOX' | 'DIGEST' | 'DROP';

/** The route of the most specific object the event is about: its dataset, else its pipeline. */
export function routeFor(routes: readonly NotificationRoute[], event: EventFacts): NotificationRoute | undefined {
  const match = (type: RouteObjectType, id: string | null | undefined) => (id ? routes.find((r) => r.objectType === type && r.objectId === id) : undefined);
  return match('DATASET', event.datasetId) ?? match('PIPELINE', event.pipelineId);
}

/**
 * A direct event always reaches the inbox at once: nobody should miss being addressed. Otherwise a
 * route for the event's object decides (Nothing drops, Errors only keeps failures, Everything keeps
 * all, even in mentions-only mode); without one, mentions-only mode drops it. What is kept waits
 * for the daily digest in digest mode.
 */
export function deliveryFor(settings: NoiseSettings, event: EventFacts): Delivery {
  if (event.direct) return 'INBOX';
  const route = routeFor(settings.routes, event);
  const kept = route ? route.level === 'ALL' || (route.level === 'ERRORS' && event.isError) : !settings.mentionsOnly;
  if (!kept) return 'DROP';
  return settings.digest ? 'DIGEST' : 'INBOX';
}

/** The most routes one person keeps: a bound on the settings body and on the rule's work. */
export const MAX_ROUTES = 200;

const uuid = z.uuid({ message: 'must be an id' });

const notificationRouteSchema = z.object({
  objectType: z.enum(ROUTE_OBJECT_TYPES, { message: "must be 'DATASET' or 'PIPELINE'" }),
  objectId: uuid,
  level: z.enum(ROUTE_LEVELS, { message: "must be 'ALL', 'ERRORS' or 'NONE'" }),
});

/** The body of PUT on a profile's notification settings. */
export const noiseSettingsInputSchema = z.looseObject({
  mentionsOnly: z.boolean({ message: 'must be true or false' }),
  digest: z.boolean({ message: 'must be true or false' }),
  routes: z.array(notificationRouteSchema).max(MAX_ROUTES, `must have at most ${MAX_ROUTES} entries`),
});

/** One route per object: a later entry for the same object replaces an earlier one. */
export function uniqueRoutes(routes: readonly NotificationRoute[]): NotificationRoute[] {
  const byObject = new Map<string, NotificationRoute>();
  for (const route of routes) byObject.set(`${route.objectType} ${route.objectId}`, route);
  return [...byObject.values()];
}

/** The settings with one object's route set to a level, or removed (level undefined). */
export function withRoute(settings: NoiseSettings, objectType: RouteObjectType, objectId: string, level: RouteLevel | undefined): NoiseSettings {
  const others = settings.routes.filter((r) => !(r.objectType === objectType && r.objectId === objectId));
  return { ...settings, routes: level === undefined ? others : [...others, { objectType, objectId, level }] };
}
