import { Body1, Button, makeStyles, tokens } from '@fluentui/react-components';
import { CenteredMessage } from '../components/CenteredMessage';
import { useRuntime } from '../runtime';

const useStyles = makeStyles({ actions: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, width: '100%', maxWidth: '280px' } });

/** The unauthenticated shell state: one press takes the visitor to the identity provider. */
export function LoginView({ onSignIn, onSignUp }: { onSignIn: () => void; onSignUp: () => void }) {
  const styles = useStyles();
  const { config } = useRuntime();
  return (
    <CenteredMessage title={`Welcome to ${config.appTitle}`}>
      <Body1>Browse, search, discuss and watch the datasets of your workspace.</Body1>
      <div className={styles.actions}>
        <Button appearance="primary" size="large" onClick={onSignIn}>
          Sign in
        </Button>
        <Button appearance="subtle" onClick={onSignUp}>
          Create an account
        </Button>
      </div>
    </CenteredMessage>
  );
}
