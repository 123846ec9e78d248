import { z } from 'zod';
import { halResource, pagedCollection } from './hal';

// A dataset's alert rules (issue 12): "tell watchers when the value in column C crosses T". A rule
// is data — a column name, a comparison and a number — never an expression: it is checked against
// the rows the dataset's own read-only query returns, so no user text runs as code anywhere.

export const ALERT_OPERATORS = ['>', '>=', '<', '<='] as const;
export type AlertOperator = (typeof ALERT_OPERATORS)[number];

/** At most this many rules per dataset (each is checked after every refresh). */
export const MAX_ALERT_RULES = 10;

export const alertRuleInputSchema = z.object({
  column: z
    .string({ error: 'Column is mandatory' })
    .trim()
    .min(1, 'Column is mandatory')
    .max(200, 'must be at most 200 characters'),
  operator: z.enum(ALERT_OPERATORS, { error: `must be one of ${ALERT_OPERATORS.join(', ')}` }),
  threshold: z.number({ error: 'Threshold must be a number' }).refine(Number.isFinite, 'Threshold must be a number'),
});
export type AlertRuleInput = z.infer<typeof alertRuleInputSchema>;

/** PUT 'update alert rules': the dataset's whole set of rules, replaced. */
export const alertRulesWriteSchema = z.object({
  rules: z.array(alertRuleInputSchema).max(MAX_ALERT_RULES, `must hold at most ${MAX_ALERT_RULES} rules`),
});

export const alertSchema = halResource({ id: z.string(), raised: z.string(), detail: z.string(), datasetId: z.string().nullish() });
/** An initialised alert (POST 'new alert'): its id and the link whose PUT raises it; nothing stored yet. */
export const alertDraftSchema = halResource({ id: z.string(), datasetId: z.string(), detail: z.string().nullish() });
const MAX_ALERT_DETAIL = 2_000;
/** PUT 'create alert': an alert raised by hand, told to the dataset's watchers like one a rule raises. */
export const alertWriteSchema = z.object({
  detail: z.string({ error: 'Detail is mandatory' }).trim().min(1, 'Detail is mandatory').max(MAX_ALERT_DETAIL, `must be at most ${MAX_ALERT_DETAIL} characters`),
});
export const alertsPageSchema = pagedCollection('alerts', alertSchema);

const alertRuleSchema = z.looseObject({ id: z.string(), column: z.string(), operator: z.enum(ALERT_OPERATORS), threshold: z.number(), breached: z.boolean() });
export const alertRulesSchema = halResource({ _embedded: z.looseObject({ alertRules: z.array(alertRuleSchema) }).nullish() });

/** 'total > 1000' */
export function ruleText(rule: Pick<AlertRuleInput, 'column' | 'operator' | 'threshold'>): string {
  return `${rule.column} ${rule.operator} ${rule.threshold}`;
}

function compare(value: number, operator: AlertOperator, threshold: number): boolean {
  switch (operator) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
  }
}

/** A cell as a number: numbers, and numeric text (PostgreSQL's numeric arrives as text); anything else is no value. */
export function numericValue(cell: unknown): number | undefined {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : undefined;
  if (typeof cell === 'bigint') return Number(cell);
  if (typeof cell === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(cell)) {
    const n = Number(cell);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * The first value of `rule.column` among the rows that crosses the threshold, or undefined when
 * none does (a missing column or non-numeric cells never breach).
 */
export function breachingValue(rule: Pick<AlertRuleInput, 'column' | 'operator' | 'threshold'>, rows: readonly Record<string, unknown>[]): number | undefined {
  for (const row of rows) {
    if (!Object.prototype.hasOwnProperty.call(row, rule.column)) continue;
    const value = numericValue(row[rule.column]);
    if (value !== undefined && compare(value, rule.operator, rule.threshold)) return value;
  }
  return undefined;
}

/** The alert's text when a rule starts to breach. */
export function breachDetail(rule: Pick<AlertRuleInput, 'column' | 'operator' | 'threshold'>, value: number): string {
  return `Rule ${ruleText(rule)} crossed: ${rule.column} is ${value}.`;
}
