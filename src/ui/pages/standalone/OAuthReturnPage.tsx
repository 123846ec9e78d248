import { Body1, Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { providerOf, type OAuthProvider } from '../../../domain/oauth';
import { oauthRequestKey } from '../../../machines/oauthConnect/oauthConnect.actors';
import { Loading } from '../../components/Loading';
import { useRuntime } from '../../runtime';

const useStyles = makeStyles({ page: { padding: tokens.spacingHorizontalXXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS } });

/**
 * The data-source authorisation popup (spec 001 §2): opened on /oauth?state=…, it goes on to the
 * provider's authorization url its opener prepared (kept under that state in this origin's
 * storage, so no url in the address bar can send it elsewhere); the provider returns here with
 * ?code or ?error, which the opener reads and then closes this window.
 */
export function OAuthReturnPage() {
  const styles = useStyles();
  const [params] = useSearchParams();
  const { config } = useRuntime();
  const [problem, setProblem] = useState<string | null>(null);
  const state = params.get('state');
  const returned = params.has('code') || params.has('error');

  useEffect(() => {
    if (returned || state === null) return;
    const key = oauthRequestKey(state);
    const url = window.localStorage.getItem(key);
    window.localStorage.removeItem(key);
    const configured = Object.fromEntries(Object.entries(config.oauth).map(([p, client]) => [p, client.authorizationUrls])) as Partial<Record<OAuthProvider, string[]>>;
    if (url === null || providerOf(url, configured) === undefined) {
      setProblem('This authorisation request has expired. Close this window and connect again.');
      return;
    }
    window.location.replace(url);
  }, [returned, state, config.oauth]);

  if (problem !== null || (!returned && state === null)) {
    return (
      <main className={styles.page}>
        <Body1>{problem ?? 'Nothing to authorise here.'}</Body1>
      </main>
    );
  }
  if (returned) {
    return (
      <main className={styles.page}>
        <Body1>{params.has('code') ? 'Authorised.' : 'The authorisation was not given.'}</Body1>
        <Caption1>This window closes by itself.</Caption1>
      </main>
    );
  }
  return <Loading />;
}
