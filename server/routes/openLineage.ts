import type { FastifyInstance } from 'fastify';
import { openLineageEventsSchema } from '../../src/domain/openLineageResources';
import { REL } from '../../src/domain/relations';
import { pagedCollection } from '../http/hal';
import { listEvents } from '../repositories/openLineage';
import { openLineageEventBody } from '../representations/openLineage';
import { requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';

// OpenLineage out (issue 41, item 4), read back: the events a workspace's runs and publishes
// emitted, newest first, each as sent with its delivery. Its admins follow the workspace's
// 'lineage events' link; a member is refused (403) and another workspace's caller finds nothing (404).

export function openLineageRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/workspaces/:id/lineage/events',
    guard: { resource: 'workspace', rel: REL.lineageEvents },
    response: openLineageEventsSchema,
    paging: {},
    objectName: 'events',
    handler: async ({ request, access, paging }) => {
      const { rows, total } = await listEvents(ctx.db, access.workspace.id, { offset: paging.page * paging.size, limit: paging.size });
      return pagedCollection('events', rows.map((row) => openLineageEventBody(ctx, row)), paging, total, requestUrl(ctx, request));
    },
  });
}
