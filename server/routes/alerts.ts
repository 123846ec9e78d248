import type { FastifyInstance } from 'fastify';
import { alertRulesWriteSchema, type alertRulesSchema, type alertSchema } from '../../src/domain/alertRules';
import { REL } from '../../src/domain/relations';
import type { Wire } from '../../src/domain/resources';
import type { AccessByResource } from '../policy/access';
import { links, pagedCollection } from '../http/hal';
import { alertsOf, replaceRules, rulesOf, type AlertRow, type AlertRuleRow } from '../repositories/alerts';
import { isoRequired, requestUrl, type RouteContext } from './context';
import { defineRoute } from './define';

// A dataset's alerts (spec 002 §3 Alert: id, raised, detail) and its threshold rules (issue 12;
// the model in src/domain/alertRules.ts, raised in server/notifications/datasetEvents.ts).

function alertBody(alert: AlertRow): Wire<typeof alertSchema> {
  return { id: alert.id, raised: isoRequired(alert.raised), detail: alert.detail };
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
      return pagedCollection('alerts', items.map(alertBody), paging, total, requestUrl(ctx, request));
    },
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
