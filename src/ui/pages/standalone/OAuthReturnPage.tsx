import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Loading } from '../../components/Loading';

export const OAUTH_CODE_KEY = 'oauth_code';

/** Return target of the data-source authorisation popup: keep the code for the opener to read. */
export function OAuthReturnPage() {
  const [params] = useSearchParams();
  const code = params.get('code');
  useEffect(() => {
    if (code) window.localStorage.setItem(OAUTH_CODE_KEY, code);
  }, [code]);
  return <Loading />;
}
