import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import type { AlertRules } from '../../api/datasets';
import { apiErrorOf } from '../apiError';
import { ALERT_OPERATORS, MAX_ALERT_RULES, type AlertOperator, type AlertRuleInput } from '../../domain/alertRules';
import { hasLink, type HalLike } from '../../domain/hal';
import { REL } from '../../domain/relations';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// A dataset's threshold rules (the dataset page's Alerts tab): loading → viewing; an admin (the
// rules carry 'update alert rules') edits a draft → validating → saving → viewing with the saved
// rules, or back to editing with the server's field errors. Cancel drops the draft.

/** A rule as typed: the threshold stays text until the save reads it. */
export interface DraftRule {
  readonly column: string;
  readonly operator: AlertOperator;
  readonly threshold: string;
}

export interface AlertRulesInput {
  readonly dataset: HalLike;
}

export interface SaveAlertRulesInput {
  readonly rules: AlertRules;
  readonly body: readonly AlertRuleInput[];
}

export interface AlertRulesContext {
  readonly input: AlertRulesInput;
  readonly rules: AlertRules | null;
  readonly loadError: string | null;
  /** null while viewing */
  readonly draft: readonly DraftRule[] | null;
  readonly errors: readonly string[];
}

export type AlertRulesEvent =
  | { readonly type: 'user.edit' }
  | { readonly type: 'user.change'; readonly index: number; readonly patch: Partial<DraftRule> }
  | { readonly type: 'user.add' }
  | { readonly type: 'user.remove'; readonly index: number }
  | { readonly type: 'user.save' }
  | { readonly type: 'user.cancel' };

export const EMPTY_RULE: DraftRule = { column: '', operator: '>', threshold: '' };

export const draftOf = (rules: AlertRules): DraftRule[] =>
  (rules._embedded?.alertRules ?? []).map((r) => ({ column: r.column, operator: r.operator, threshold: String(r.threshold) }));

/**
 * The draft as the body of the save, or the first rule whose threshold the form cannot read as a
 * number (refused here in the server's own words: a NaN would not survive JSON).
 */
export function readDraft(draft: readonly DraftRule[]): { ok: true; body: AlertRuleInput[] } | { ok: false; errors: string[] } {
  const body = draft.map((r) => ({ column: r.column.trim(), operator: r.operator, threshold: r.threshold.trim() === '' ? Number.NaN : Number(r.threshold) }));
  const unreadable = body.findIndex((r) => !Number.isFinite(r.threshold));
  return unreadable >= 0 ? { ok: false, errors: [`Rule ${unreadable + 1}: Threshold must be a number`] } : { ok: true, body };
}

/** A failed save: each of a response's field errors as 'Rule N: message', else the failure. */
export function saveErrors(error: unknown): string[] {
  const apiError = apiErrorOf(error);
  const fields = apiError.kind === 'response' ? (apiError.body?.errors ?? []) : [];
  if (fields.length === 0) return [failureText(error)];
  return fields.map((e) => `${e.field.replace(/^rules\.(\d+)\./, (_, i: string) => `Rule ${Number(i) + 1}: `)} ${e.defaultMessage}`);
}

const isOperator = (value: unknown): value is AlertOperator => (ALERT_OPERATORS as readonly unknown[]).includes(value);

export const alertRulesMachine = setup({
  types: {
    context: {} as AlertRulesContext,
    events: {} as AlertRulesEvent,
    input: {} as AlertRulesInput,
  },
  actors: {
    loadRules: notProvidedActor<AlertRules, AlertRulesInput>('loadRules'),
    saveRules: notProvidedActor<AlertRules, SaveAlertRulesInput>('saveRules'),
  },
  guards: {
    canEdit: ({ context }) => context.rules !== null && hasLink(context.rules, REL.updateAlertRules),
    canAdd: ({ context }) => (context.draft?.length ?? MAX_ALERT_RULES) < MAX_ALERT_RULES,
    draftReadable: ({ context }) => readDraft(context.draft ?? []).ok,
  },
}).createMachine({
  id: 'alertRules',
  context: ({ input }) => ({ input, rules: null, loadError: null, draft: null, errors: [] }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadRules',
        src: 'loadRules',
        input: ({ context }) => context.input,
        onDone: { target: 'viewing', actions: assign({ rules: ({ event }) => event.output }) },
        onError: { target: 'loadFailed', actions: assign({ loadError: ({ event }) => failureText(event.error) }) },
      },
    },
    loadFailed: {},
    viewing: {
      on: {
        'user.edit': {
          guard: 'canEdit',
          target: 'editing',
          actions: assign(({ context }) => ({ draft: context.rules === null ? [] : draftOf(context.rules), errors: [] })),
        },
      },
    },
    editing: {
      on: {
        'user.change': {
          actions: assign({
            draft: ({ context, event }) =>
              (context.draft ?? []).map((rule, i) => {
                if (i !== event.index) return rule;
                // only the three fields of a rule, and only an offered comparison
                const { column, operator, threshold } = event.patch;
                return {
                  column: column ?? rule.column,
                  operator: isOperator(operator) ? operator : rule.operator,
                  threshold: threshold ?? rule.threshold,
                };
              }),
          }),
        },
        'user.add': { guard: 'canAdd', actions: assign({ draft: ({ context }) => [...(context.draft ?? []), EMPTY_RULE] }) },
        'user.remove': { actions: assign({ draft: ({ context, event }) => (context.draft ?? []).filter((_, i) => i !== event.index) }) },
        'user.save': 'validating',
        'user.cancel': { target: 'viewing', actions: assign({ draft: null, errors: [] }) },
      },
    },
    validating: {
      always: [
        { guard: 'draftReadable', target: 'saving', actions: assign({ errors: [] }) },
        {
          target: 'editing',
          actions: assign(({ context }) => {
            const read = readDraft(context.draft ?? []);
            return { errors: read.ok ? [] : read.errors };
          }),
        },
      ],
    },
    saving: {
      invoke: {
        id: 'saveRules',
        src: 'saveRules',
        input: ({ context }) => {
          const read = readDraft(context.draft ?? []);
          // validating let only a readable draft through; the guard and this read the same draft
          if (!read.ok || context.rules === null) throw new Error('saving an unreadable draft');
          return { rules: context.rules, body: read.body };
        },
        onDone: { target: 'viewing', actions: assign({ rules: ({ event }) => event.output, draft: null, errors: [] }) },
        onError: { target: 'editing', actions: assign({ errors: ({ event }) => saveErrors(event.error) }) },
      },
    },
  },
});

export type AlertRulesSnapshot = SnapshotFrom<typeof alertRulesMachine>;
