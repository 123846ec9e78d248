import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { DismissRegular, SendRegular, SparkleRegular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { MESSAGES } from '../../domain/errors';
import type { Workspace } from '../../domain/resources';
import { selectCanSubmit } from '../../machines/assistant/assistant.machine';
import { useMachines } from '../MachinesProvider';
import { shellMachines } from '../machineAreas/shell';

const useStyles = makeStyles({
  // The toolbar is brand-coloured: the icon sits on it like the toolbar's other buttons.
  trigger: {
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { color: tokens.colorNeutralForegroundOnBrand, backgroundColor: 'rgba(255,255,255,0.12)' },
    ':hover:active': { color: tokens.colorNeutralForegroundOnBrand },
  },
  surface: { maxWidth: 'min(560px, calc(100vw - 32px))', boxSizing: 'border-box' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
  title: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  titleIcon: { color: tokens.colorBrandForeground1, fontSize: '20px' },
});

/**
 * The research assistant (spec 000 §2.10): a toolbar button opening a question dialog. The toolbar
 * shows it only when the workspace's FEATURE_QUESTIONS is 'true' (domain questionsEnabled).
 */
export function Assistant({ workspace }: { workspace: Workspace }) {
  // Another workspace is another conversation: its questions go to its own 'questions' link.
  return <AssistantDialog key={workspace.id} workspace={workspace} />;
}

function AssistantDialog({ workspace }: { workspace: Workspace }) {
  const styles = useStyles();
  const machines = useMachines(shellMachines);
  const assistant = useActorRef(machines.assistant, { input: { workspace } });

  const open = useSelector(assistant, (s) => !s.matches('closed'));
  const asking = useSelector(assistant, (s) => s.matches('asking'));
  const text = useSelector(assistant, (s) => s.context.text);
  const message = useSelector(assistant, (s) => s.context.message);
  const canSubmit = useSelector(assistant, selectCanSubmit);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Enter with no text is ignored by the machine (spec 000 §5).
    assistant.send({ type: 'user.submit' });
  };

  return (
    <>
      <Tooltip content="Ask a question" relationship="label">
        <Button
          appearance="transparent"
          className={styles.trigger}
          icon={<SparkleRegular />}
          aria-label="Ask a question"
          aria-haspopup="dialog"
          onClick={() => assistant.send({ type: 'user.open' })}
        />
      </Tooltip>
      <Dialog open={open} onOpenChange={(_, data) => !data.open && assistant.send({ type: 'user.close' })}>
        <DialogSurface className={styles.surface}>
          <form onSubmit={onSubmit} noValidate>
            <DialogBody>
              <DialogTitle
                action={<Button appearance="subtle" aria-label="Close" icon={<DismissRegular />} onClick={() => assistant.send({ type: 'user.close' })} />}
              >
                <span className={styles.title}>
                  <SparkleRegular className={styles.titleIcon} aria-hidden />
                  Ask a question
                </span>
              </DialogTitle>
              <DialogContent className={styles.content}>
                <Body1 className={styles.muted}>Ask about your data in your own words and we will open the dataset that answers it.</Body1>
                <Field label="Your question">
                  <Input
                    autoFocus
                    value={text}
                    placeholder="For example: what is our monthly revenue?"
                    disabled={asking}
                    onChange={(_, data) => assistant.send({ type: 'user.type', text: data.value })}
                  />
                </Field>
                {asking && <Spinner size="tiny" label="Looking for an answer" labelPosition="after" />}
                {message !== null && (
                  <MessageBar intent={message === MESSAGES.noAnswer ? 'info' : 'error'} role="status">
                    <MessageBarBody>{message}</MessageBarBody>
                  </MessageBar>
                )}
              </DialogContent>
              <DialogActions>
                <Button appearance="primary" type="submit" icon={<SendRegular />} disabled={!canSubmit}>
                  Ask
                </Button>
              </DialogActions>
            </DialogBody>
          </form>
        </DialogSurface>
      </Dialog>
    </>
  );
}
