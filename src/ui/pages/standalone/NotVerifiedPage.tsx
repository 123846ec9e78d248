import { Body1, Link, MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useLocation } from 'react-router-dom';
import { MESSAGES } from '../../../domain/errors';
import { CenteredMessage } from '../../components/CenteredMessage';
import { useRuntime } from '../../runtime';
import { ReturnToLogin } from './ReturnToLogin';

/** /notverified: the sign-in error that sent the user here, and what to do about it. */
export function NotVerifiedPage() {
  const location = useLocation();
  const { config } = useRuntime();
  const state = location.state as { message?: unknown } | null;
  const message = typeof state?.message === 'string' ? state.message : MESSAGES.verifyEmail;
  return (
    <CenteredMessage title={MESSAGES.verifyAccount}>
      <MessageBar intent="warning">
        <MessageBarBody>{message}</MessageBarBody>
      </MessageBar>
      <Body1>Open the link in the email we sent you, then sign in again.</Body1>
      {/* Only our embedded provider has this page; an external one (Auth0) offers its own way. */}
      {config.auth.embedded && <Link href={`${config.auth.domain}/verify/resend`}>Send the verification email again</Link>}
      <ReturnToLogin />
    </CenteredMessage>
  );
}
