import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, MessageBar, MessageBarBody, Radio, RadioGroup, Spinner, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import type { SubscriptionType } from '../../domain/resources';

const useStyles = makeStyles({ hint: { color: tokens.colorNeutralForeground3 } });

export interface WatchChoice {
  readonly value: SubscriptionType;
  /** the spec's word: Errors or Alerts, All activity or All Activity */
  readonly label: string;
  /** what the watcher will be told about */
  readonly hint: string;
}

type Props = {
  readonly open: boolean;
  readonly saving: boolean;
  readonly error: string | null;
  /** the first is chosen when the dialog opens */
  readonly choices: readonly [WatchChoice, WatchChoice];
  readonly onChoose: (subscription: SubscriptionType) => void;
  readonly onCancel: () => void;
};

/**
 * The 'Watch for...' dialog of a pipeline (spec 001) and of a dataset (spec 002): one behaviour for
 * both — pick what to be told about, then Watch — with each spec's own words.
 */
export function WatchForDialog({ open, saving, error, choices, onChoose, onCancel }: Props) {
  const styles = useStyles();
  const [choice, setChoice] = useState<SubscriptionType>(choices[0].value);
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !saving && onCancel()}>
      <DialogSurface aria-label="Watch for...">
        <DialogBody>
          <DialogTitle>Watch for...</DialogTitle>
          <DialogContent>
            {error !== null && (
              <MessageBar intent="error" role="alert">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
            <RadioGroup value={choice} onChange={(_, data) => setChoice(choices.find((c) => c.value === data.value)?.value ?? choices[0].value)}>
              {choices.map((c) => (
                <Radio key={c.value} value={c.value} label={{ children: <>{c.label} <span className={styles.hint}>({c.hint})</span></> }} aria-label={c.label} disabled={saving} />
              ))}
            </RadioGroup>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={saving} onClick={onCancel}>
              Cancel
            </Button>
            <Button appearance="primary" disabled={saving} icon={saving ? <Spinner size="tiny" /> : null} onClick={() => onChoose(choice)}>
              Watch
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
