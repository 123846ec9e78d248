import { Button, Dropdown, Option, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import type { PickerKind } from '../../../../../domain/oauth';
import type { DataComponent } from '../../../../../domain/resources';
import { useProviderPicker } from '../../../../data/pickers';

const useStyles = makeStyles({ row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' } });

/**
 * Fills a setting from the connected source's own list (spec 001 §5, §7; read by useProviderPicker).
 * The setting stays editable as text; the list only offers its values.
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
  const { options, loading, error, load } = useProviderPicker(props);

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
