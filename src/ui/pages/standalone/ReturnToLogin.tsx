import { Link } from '@fluentui/react-components';
import { useAuthPort } from '../../auth/AuthBridge';

/** 'Return to Login' logs out, so the next sign-in can be another account (spec 000 §2.2). */
export function ReturnToLogin() {
  const port = useAuthPort();
  return (
    <Link
      href="/"
      onClick={(event) => {
        event.preventDefault();
        void port.logout(`${window.location.origin}/`);
      }}
    >
      Return to Login
    </Link>
  );
}
