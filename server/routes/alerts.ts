import type { FastifyInstance } from 'fastify';
import { alertRulesWriteSchema, alertWriteSchema, type alertDraftSchema, type alertRulesSchema, type alertSchema } from '../../src/domain/alertRules';
import { REL } from '../../src/domain/relations';
import type { Wire } from '../../src/domain/resources';
import type { AccessByResource } from '../policy/access';
import { links, pagedCollection } from '../http/hal';
import { alertDraftLinks, alertLinks } from '../policy/links';
import { alertsOf, replaceRules, rulesOf, type AlertRow, type AlertRuleRow } from '../repositories/alerts';
import { newId } from '../repositories/ids';
import { raiseAlertAs } from '../services/alerts';
import { callerName, isoRequired, requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';

// A dataset's alerts (spec 002 §3 Alert: id, raised, detail) and its threshold rules (issue 12;
// the model in src/domain/alertRules.ts, raised in server/notifications/datasetEvents.ts).

function alertBody(ctx: RouteContext, alert: AlertRow): Wire<typeof alertSchema> {
  return { id: alert.id, raised: isoRequired(alert.raised), detail: alert.detail, datasetId: alert.dataset_id, _links: alertLinks(ctx.h, alert) };
}

function rulesBody(ctx: RouteContext, access: AccessByResource['dataset'], rules: AlertRuleRow[]): Wire<typeof alertRulesSchema> {
  const href = ctx.h.datasetPart(access.dataset.id, 'alert-rules');
  return {
    _embedded: { alertRules: rules.map((r) => ({ id: r.id, column: r.column_name, operator: r.operator, threshold: r.threshold, breached: r.breached })) },
    _links: links({ [REL.self]: href, [REL.updateAlertRules]: REL.updateAlertRules in access.links && href }),
  };
}

export function alertRoutes(app: FastifyInstance, ctx: RouteContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id/alerts',
    guard: { resource: 'dataset', rel: REL.alerts },
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
    handler: ({ access }) => alertBody(ctx, access.alert),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/datasets/:id/alert-rules',
    guard: { resource: 'dataset', rel: REL.alertRules },
    handler: async ({ access }) => {
      return rulesBody(ctx, access, await rulesOf(ctx.db, access.dataset.id));
    },
  });

  /** 'update alert rules': the whole set replaced; rules are data (column, comparison, number), never code. */
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/datasets/:id/alert-rules',
    guard: { resource: 'dataset', rel: REL.updateAlertRules },
    body: alertRulesWriteSchema,
    objectName: 'alertRules',
    handler: async ({ access, body }) => rulesBody(ctx, access, await replaceRules(ctx.db, access.dataset.id, body.rules)),
  });
}
