import { MESSAGES } from '../../../domain/errors';
import { CenteredMessage } from '../../components/CenteredMessage';
import { ReturnToLogin } from './ReturnToLogin';

export function SignupPage() {
  return (
    <CenteredMessage title={MESSAGES.noAccount}>
      <ReturnToLogin />
    </CenteredMessage>
  );
}
