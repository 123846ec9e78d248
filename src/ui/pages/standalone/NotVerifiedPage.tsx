import { Body1, MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useLocation } from 'react-router-dom';
import { MESSAGES } from '../../../domain/errors';
import { CenteredMessage } from '../../components/CenteredMessage';
import { ReturnToLogin } from './ReturnToLogin';

/** /notverified: the sign-in error that sent the user here, and what to do about it. */
export function NotVerifiedPage() {
  const location = useLocation();
  const state = location.state as { message?: unknown } | null;
  const message = typeof state?.message === 'string' ? state.message : MESSAGES.verifyEmail;
  return (
    <CenteredMessage title={MESSAGES.verifyAccount}>
      <MessageBar intent="warning">
        <MessageBarBody>{message}</MessageBarBody>
      </MessageBar>
      <Body1>Open the link in the email we sent you, then sign in again.</Body1>
      <ReturnToLogin />
    </CenteredMessage>
  );
}
