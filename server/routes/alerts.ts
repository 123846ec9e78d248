import type { FastifyInstance } from 'fastify';
import { alertDraftSchema, alertRulesSchema, alertRulesWriteSchema, alertSchema, alertsPageSchema, alertWriteSchema } from '../../src/domain/alertRules';
import { REL } from '../../src/domain/relations';
import type { Wire } from '../../src/domain/resources';
import { pagedCollection } from '../http/hal';
import { alertDraftLinks } from '../policy/links';
import { alertsOf, replaceRules, rulesOf } from '../repositories/alerts';
import { alertBody, alertRulesBody } from '../representations/alert';
import { newId } from '../repositories/ids';
import { callerName, requestUrl, type RouteContext } from './context';
import { raiseAlertAs } from '../services/alerts';
import { defineRoute } from './define';

// A dataset's alerts (spec 002 §3 Alert: id, raised, detail) and its threshold rules (issue 12;
// the model in src/domain/alertRules.ts, raised in server/notifications/datasetEvents.ts).

export function alertRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id/alerts',
    guard: { resource: 'dataset', rel: REL.alerts },
    response: alertsPageSchema,
    paging: { defaultSize: 20 },
    objectName: 'alerts',
    handler: async ({ request, access, paging }) => {
      const { items, total } = await alertsOf(ctx.db, access.dataset.id, paging);
      return pagedCollection('alerts', items.map((a) => alertBody(ctx, a)), paging, total, requestUrl(ctx, request));
    },
  });

  /** Initialise ('new alert', admins): an id and the link whose PUT raises it; nothing is stored yet. */
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/datasets/:id/alerts',
    guard: { resource: 'dataset', rel: REL.newAlert },
    response: alertDraftSchema,
    handler: ({ access }): Wire<typeof alertDraftSchema> => {
      const id = newId();
      return { id, datasetId: access.dataset.id, detail: null, _links: alertDraftLinks(ctx.h, access.dataset.id, id, access.role) };
    },
  });

  /**
   * Create (the draft's 'create alert', 201): raised now and told to the dataset's watchers (ALERTS
   * and ALL) like an alert a rule raises. An alert never changes: a second PUT of one id is a 409.
   */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/datasets/:id/alerts/:alertId',
    guard: { resource: 'dataset', rel: REL.newAlert },
    response: alertSchema,
    body: alertWriteSchema,
    objectName: 'alert',
    handler: async ({ request, reply, access, body, param }) => {
      const dataset = { id: access.dataset.id, workspaceId: access.workspace.id };
      const alert = await raiseAlertAs(ctx.db, param('alertId'), dataset, body.detail, callerName(request.caller));
      return reply.status(201).send(alertBody(ctx, alert));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/alerts/:id',
    guard: { resource: 'alert', rel: REL.self },
    response: alertSchema,
    handler: ({ access }) => alertBody(ctx, access.alert),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id/alert-rules',
    guard: { resource: 'dataset', rel: REL.alertRules },
    response: alertRulesSchema,
    handler: async ({ access }) => {
      return alertRulesBody(ctx, access, await rulesOf(ctx.db, access.dataset.id));
    },
  });

  /** 'update alert rules': the whole set replaced; rules are data (column, comparison, number), never code. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/datasets/:id/alert-rules',
    guard: { resource: 'dataset', rel: REL.updateAlertRules },
    response: alertRulesSchema,
    body: alertRulesWriteSchema,
    objectName: 'alertRules',
    handler: async ({ access, body }) => alertRulesBody(ctx, access, await replaceRules(ctx.db, access.dataset.id, body.rules)),
  });
}
