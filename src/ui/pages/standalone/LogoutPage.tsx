import { Body1, Button, Spinner } from '@fluentui/react-components';
import { useEffect, useRef } from 'react';
import { MESSAGES } from '../../../domain/errors';
import { useAuthPort, useAuthSnapshot } from '../../auth/AuthBridge';
import { CenteredMessage } from '../../components/CenteredMessage';

/** /logout: 'Logging out' with the user's name while signed in, then 'You are logged out.' */
export function LogoutPage() {
  const { isLoading, isAuthenticated, user } = useAuthSnapshot();
  const port = useAuthPort();
  const started = useRef(false);

  useEffect(() => {
    if (isLoading || !isAuthenticated || started.current) return;
    started.current = true;
    // A short pause so the farewell is readable before the provider takes over.
    const timer = window.setTimeout(() => void port.logout(`${window.location.origin}/logout`), 600);
    return () => window.clearTimeout(timer);
  }, [isLoading, isAuthenticated, port]);

  if (isLoading) return <CenteredMessage title={MESSAGES.loggingOut}><Spinner /></CenteredMessage>;
  if (isAuthenticated) {
    return (
      <CenteredMessage title={MESSAGES.loggingOut} role="status">
        <Body1>{user?.name ? `See you soon, ${user.name}.` : null}</Body1>
        <Spinner size="small" />
      </CenteredMessage>
    );
  }
  return (
    <CenteredMessage title={MESSAGES.loggedOut} role="status">
      <Button appearance="primary" onClick={() => void port.login({ returnTo: '/' })}>
        Sign in again
      </Button>
    </CenteredMessage>
  );
}
