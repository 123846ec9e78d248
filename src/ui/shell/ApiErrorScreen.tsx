import { Body1, Button, makeStyles, tokens } from '@fluentui/react-components';
import { MESSAGES } from '../../domain/errors';
import { CenteredMessage } from '../components/CenteredMessage';

const useStyles = makeStyles({ actions: { display: 'flex', gap: tokens.spacingHorizontalM } });

/** Spec 000 §8: 'Uh oh!', the message, RETRY and LOGOUT. */
export function ApiErrorScreen({ message, onRetry, onLogout }: { message: string; onRetry: () => void; onLogout: () => void }) {
  const styles = useStyles();
  return (
    <CenteredMessage title={MESSAGES.uhOh} role="alert">
      <Body1>{message}</Body1>
      <div className={styles.actions}>
        <Button appearance="primary" onClick={onRetry}>
          RETRY
        </Button>
        <Button onClick={onLogout}>LOGOUT</Button>
      </div>
    </CenteredMessage>
  );
}
