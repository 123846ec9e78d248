import { Button, Dropdown, Option, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { useRef, useState } from 'react';
import { refreshToken } from '../../../../../api/oauth';
import { adsCustomers, analyticsProfiles, driveSpreadsheets, type PickerOption } from '../../../../../api/pickers';
import { isOAuthProvider, providerOf, type OAuthProvider, type PickerKind } from '../../../../../domain/oauth';
import type { DataComponent } from '../../../../../domain/resources';
import { useRuntime } from '../../../../runtime';

const useStyles = makeStyles({ row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' } });

/**
 * Fills a setting from the connected source's own list (spec 001 §5, §7): the browser calls the
 * provider directly with an access token the refresh exchange hands out (a 401 refreshes once and
 * retries once). The setting stays editable as text; the list only offers its values.
 */
export function PickerButton(props: {
  kind: PickerKind;
  label: string;
  search: string;
  component: DataComponent;
  /** the source's authorization url: its provider names the token exchange when the component was connected after the page loaded */
  authorizationUrl: string;
  developerToken: string;
  disabled: boolean;
  onPick: (id: string) => void;
}) {
  const styles = useStyles();
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

  return (
    <div className={styles.row}>
      <Button size="small" disabled={props.disabled || loading} onClick={() => void load()}>
        Choose from {props.kind === 'drive' ? 'drive' : 'account'}…
      </Button>
      {loading && <Spinner size="tiny" />}
      {error !== null && <span role="alert">{error}</span>}
      {options !== null && (
        <Dropdown aria-label={`${props.label} choices`} placeholder={options.length === 0 ? 'Nothing found' : `${options.length} found`} onOptionSelect={(_, data) => data.optionValue && props.onPick(data.optionValue)}>
          {options.map((option) => (
            <Option key={option.id} value={option.id} text={option.name}>
              {option.name}
            </Option>
          ))}
        </Dropdown>
      )}
    </div>
  );
}
