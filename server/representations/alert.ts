import type { alertRulesSchema, alertSchema } from '../../src/domain/alertRules';
import { REL } from '../../src/domain/relations';
import type { Wire } from '../../src/domain/resources';
import { links } from '../http/hal';
import type { AccessByResource } from '../policy/access';
import { alertLinks } from '../policy/links';
import type { AlertRow, AlertRuleRow } from '../repositories/alerts';
import { isoRequired, type BodyContext } from './context';

export function alertBody(ctx: BodyContext, alert: AlertRow): Wire<typeof alertSchema> {
  return { id: alert.id, raised: isoRequired(alert.raised), detail: alert.detail, datasetId: alert.dataset_id, _links: alertLinks(ctx.h, alert) };
}

/** A dataset's alert rules; 'update alert-rules' when the caller is offered it on the dataset. */
export function alertRulesBody(ctx: BodyContext, access: AccessByResource['dataset'], rules: AlertRuleRow[]): Wire<typeof alertRulesSchema> {
  const href = ctx.h.datasetPart(access.dataset.id, 'alert-rules');
  return {
    _embedded: { alertRules: rules.map((r) => ({ id: r.id, column: r.column_name, operator: r.operator, threshold: r.threshold, breached: r.breached })) },
    _links: links({ [REL.self]: href, [REL.updateAlertRules]: REL.updateAlertRules in access.links && href }),
  };
}
