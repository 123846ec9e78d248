import { useRef, useState } from 'react';
import { refreshToken } from '../../api/oauth';
import { adsCustomers, analyticsProfiles, driveSpreadsheets, type PickerOption } from '../../api/pickers';
import { isOAuthProvider, providerOf, type OAuthProvider, type PickerKind } from '../../domain/oauth';
import type { DataComponent } from '../../domain/resources';
import { useRuntime } from '../runtime';

export type { PickerOption };

/**
 * A connected source's own list (spec 001 §5, §7), read on demand: the browser calls the provider
 * directly with an access token the refresh exchange hands out (a 401 refreshes once and retries
 * once); the token is kept for the next read. Errors are the provider's words.
 */
export function useProviderPicker(props: { kind: PickerKind; search: string; component: DataComponent; authorizationUrl: string; developerToken: string }) {
  const { client, config } = useRuntime();
  const token = useRef<string | null>(null);
  const [options, setOptions] = useState<PickerOption[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const configured = Object.fromEntries(Object.entries(config.oauth).map(([p, c]) => [p, c.authorizationUrls])) as Partial<Record<OAuthProvider, string[]>>;
  const provider = props.component.credentials?.provider ?? providerOf(props.authorizationUrl, configured);

  const load = async () => {
    setLoading(true);
    setError(null);
    const auth = {
      accessToken: token.current,
      refresh: async () => {
        if (!isOAuthProvider(provider)) throw new Error('Connect this data source first.');
        token.current = (await refreshToken(client, props.component, provider)).access_token;
        return token.current;
      },
    };
    try {
      const found =
        props.kind === 'drive'
          ? await driveSpreadsheets(config.pickers.driveFilesUrl, props.search, auth)
          : props.kind === 'analytics'
            ? await analyticsProfiles(config.pickers.analyticsProfilesUrl, auth)
            : await adsCustomers(config.pickers.adsCustomersUrl, props.developerToken, auth);
      setOptions(found);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The list could not be read.');
    } finally {
      setLoading(false);
    }
  };
  return { options, loading, error, load };
}
