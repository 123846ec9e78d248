import { Badge, Body1, Button, Caption1, Dropdown, Input, makeStyles, MessageBar, MessageBarBody, Option, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { ALERT_OPERATORS, MAX_ALERT_RULES, ruleText, type AlertOperator } from '../../../../domain/alertRules';
import { hasLink } from '../../../../domain/hal';
import { REL } from '../../../../domain/relations';
import type { Dataset } from '../../../../domain/resources';
import type { DraftRule } from '../../../../machines/alertRules/alertRules.machine';
import { useMachines } from '../../../MachinesProvider';
import { datasetPageMachines } from '../../../machineAreas/datasetPage';

// The dataset's threshold rules under its alerts: everyone with 'alert rules' reads them; those
// whose rules carry 'update alert rules' (admins) change them. A rule is a column, a comparison
// and a number, checked after each refresh of the dataset's data (docs/decisions.md).

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`, paddingTop: tokens.spacingVerticalM },
  row: { display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) 72px minmax(0, 1fr) auto', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, margin: 0, padding: 0, listStyle: 'none' },
  item: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  operator: { minWidth: '72px' },
});

export function AlertRules({ dataset }: { dataset: Dataset }) {
  const styles = useStyles();
  const machines = useMachines(datasetPageMachines);
  const editor = useActorRef(machines.alertRules, { input: { dataset } });
  const rules = useSelector(editor, (s) => s.context.rules);
  const loadError = useSelector(editor, (s) => s.context.loadError);
  const draft = useSelector(editor, (s) => s.context.draft);
  const errors = useSelector(editor, (s) => s.context.errors);
  const saving = useSelector(editor, (s) => s.matches('saving'));

  if (loadError !== null) return <Body1 role="alert">{loadError}</Body1>;
  if (rules === null) return <Spinner size="tiny" />;
  const canEdit = hasLink(rules, REL.updateAlertRules);
  const list = rules._embedded?.alertRules ?? [];
  const change = (index: number, patch: Partial<DraftRule>) => editor.send({ type: 'user.change', index, patch });

  return (
    <section className={styles.root} aria-label="Alert rules">
      <Subtitle2 as="h3">Rules</Subtitle2>
      {draft === null ? (
        <>
          {list.length === 0 ? (
            <Caption1 className={styles.muted}>No rules. Alerts come from failed refreshes{canEdit ? '; add a rule to be told when a value crosses a threshold.' : '.'}</Caption1>
          ) : (
            <ul className={styles.list}>
              {list.map((rule) => (
                <li key={rule.id} className={styles.item}>
                  <Body1>{ruleText(rule)}</Body1>
                  {rule.breached && (
                    <Badge appearance="tint" color="danger">
                      crossed
                    </Badge>
                  )}
                </li>
              ))}
            </ul>
          )}
          {canEdit && (
            <div className={styles.actions}>
              <Button size="small" onClick={() => editor.send({ type: 'user.edit' })}>
                Edit rules
              </Button>
            </div>
          )}
        </>
      ) : (
        <>
          {draft.map((rule, index) => (
            <div key={index} className={styles.row}>
              <Input size="small" aria-label={`Rule ${index + 1} column`} placeholder="column" value={rule.column} onChange={(_, data) => change(index, { column: data.value })} />
              <Dropdown
                size="small"
                className={styles.operator}
                aria-label={`Rule ${index + 1} comparison`}
                value={rule.operator}
                selectedOptions={[rule.operator]}
                onOptionSelect={(_, data) => data.optionValue && change(index, { operator: data.optionValue as AlertOperator })}
              >
                {ALERT_OPERATORS.map((op) => (
                  <Option key={op} value={op}>
                    {op}
                  </Option>
                ))}
              </Dropdown>
              <Input size="small" aria-label={`Rule ${index + 1} threshold`} placeholder="number" inputMode="decimal" value={rule.threshold} onChange={(_, data) => change(index, { threshold: data.value })} />
              <Button size="small" appearance="subtle" icon={<DeleteRegular />} aria-label={`Remove rule ${index + 1}`} onClick={() => editor.send({ type: 'user.remove', index })} />
            </div>
          ))}
          {errors.length > 0 && (
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{errors.join(' ')}</MessageBarBody>
            </MessageBar>
          )}
          <div className={styles.actions}>
            <Button size="small" icon={<AddRegular />} disabled={draft.length >= MAX_ALERT_RULES} onClick={() => editor.send({ type: 'user.add' })}>
              Add rule
            </Button>
            <Button size="small" appearance="primary" disabled={saving} onClick={() => editor.send({ type: 'user.save' })}>
              Save rules
            </Button>
            <Button size="small" disabled={saving} onClick={() => editor.send({ type: 'user.cancel' })}>
              Cancel
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
