import { Button, Caption1, Dropdown, Field, Input, Option, Switch, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, DismissRegular } from '@fluentui/react-icons';
import { useState, type ComponentProps } from 'react';
import {
  arrayItems,
  editorOf,
  fileValue,
  fromDateTimeLocal,
  integerValue,
  isAzureKeyVault,
  isSettingRequired,
  objectText,
  objectValue,
  SETTING_TEXTS,
  toDateTimeLocal,
  withArrayItem,
} from '../../../../../domain/settingFields';
import type { DataComponent, Setting } from '../../../../../domain/resources';
import { OAuthSetting } from './OAuthSetting';
import { PickerButton } from './PickerButton';
import { pickerOf } from '../../../../../domain/oauth';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  item: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
  grow: { flexGrow: 1, minWidth: 0 },
  add: { alignSelf: 'flex-start' },
});

/** The authorization url (or scope) of the component's OAUTH setting: the pipeline's property, else the plugin's value. */
function oauthPart(oauth: { settings: readonly Setting[]; componentName: string; properties: Readonly<Record<string, unknown>> }, part: string): string {
  const setting = oauth.settings.find((s) => typeof s.kind === 'string' && s.kind.toUpperCase() === 'OAUTH');
  if (!setting) return '';
  const name = `${setting.name}.${part}`;
  const value = oauth.properties[`${oauth.componentName}.${name}`] ?? oauth.settings.find((s) => s.name === name)?.value;
  return typeof value === 'string' ? value : '';
}

/**
 * A list setting: an input per item, clearing one removes it. 'Add value' opens an empty input
 * that becomes an item with its first letter (issue 38: it used to add the literal text 'value',
 * and an item left empty would be saved as one).
 */
function ArrayEditor({
  fieldProps,
  label,
  items,
  inputProps,
  disabled,
  onChange,
}: {
  fieldProps: ComponentProps<typeof Field>;
  label: string;
  items: readonly string[];
  inputProps: { disabled: boolean; name: string; placeholder?: string };
  disabled: boolean;
  onChange: (value: unknown) => void;
}) {
  const styles = useStyles();
  const [adding, setAdding] = useState(false);
  // the new, still empty item is the view's own until typed into; it keeps its index as its key,
  // so the input keeps focus as it becomes the list's last item
  const rows = adding ? [...items, ''] : items;
  const change = (index: number, next: string) => {
    if (index < items.length) return onChange(withArrayItem(items, index, next));
    setAdding(false);
    if (next !== '') onChange([...items, next]);
  };
  return (
    <Field {...fieldProps}>
      <div className={styles.list}>
        {rows.map((item, index) => (
          <div className={styles.item} key={index}>
            <Input
              className={styles.grow}
              {...inputProps}
              value={item}
              autoFocus={index === items.length}
              aria-label={`${label} ${index + 1}`}
              onChange={(_, data) => change(index, data.value)}
            />
            <Button appearance="subtle" icon={<DismissRegular />} aria-label={`Remove ${label} ${index + 1}`} disabled={disabled} onClick={() => change(index, '')} />
          </div>
        ))}
        <Button className={styles.add} appearance="secondary" size="small" icon={<AddRegular />} disabled={disabled || adding} onClick={() => setAdding(true)}>
          Add value
        </Button>
      </div>
    </Field>
  );
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : typeof value === 'string' ? value : objectText(value));

/** One plugin setting (spec 001 §5 'Plugin settings'); an OAUTH setting is the Connect editor. */
export function SettingEditor({
  setting,
  value,
  error,
  disabled,
  onChange,
  oauth,
}: {
  setting: Setting;
  value: unknown;
  error: string | undefined;
  disabled: boolean;
  onChange: (value: unknown) => void;
  /** what an OAUTH setting needs: its plugin's other settings, its component, the pipeline's properties */
  oauth?: { settings: readonly Setting[]; componentName: string; dataComponent: DataComponent | undefined; properties: Readonly<Record<string, unknown>> };
}) {
  const editor = editorOf(setting);
  if (editor === 'hidden') return null;
  const label = setting.label ?? setting.name;
  const hint = isAzureKeyVault(setting) ? SETTING_TEXTS.azureKeyVault : (setting.description ?? undefined);
  const fieldProps = {
    label,
    required: isSettingRequired(setting),
    validationMessage: error ?? null,
    validationState: error ? ('error' as const) : ('none' as const),
    ...(hint === undefined ? {} : { hint }),
  };
  // the plugin's own value is what an empty field means, so it shows as the placeholder
  const placeholder = setting.placeholder ?? (setting.value === undefined || setting.value === null ? undefined : text(setting.value));
  const inputProps = { disabled, name: setting.name, ...(placeholder === undefined ? {} : { placeholder }) };

  switch (editor) {
    case 'oauth':
      return oauth ? (
        <OAuthSetting setting={setting} {...oauth} error={error === undefined ? undefined : SETTING_TEXTS.oauthRequired} disabled={disabled} />
      ) : (
        <Field {...fieldProps}>
          <Caption1>Save the data import to connect this data source.</Caption1>
        </Field>
      );
    case 'boolean':
      return (
        <Field {...fieldProps} required={false}>
          <Switch checked={value === true || value === 'true'} disabled={disabled} onChange={(_, data) => onChange(data.checked)} />
        </Field>
      );
    case 'options':
      return (
        <Field {...fieldProps}>
          <Dropdown
            {...inputProps}
            value={setting.options?.find((o) => o.value === value)?.label ?? text(value)}
            selectedOptions={[text(value)]}
            onOptionSelect={(_, data) => onChange(setting.options?.find((o) => text(o.value) === data.optionValue)?.value ?? data.optionValue)}
          >
            {(setting.options ?? []).map((option) => (
              <Option key={text(option.value)} value={text(option.value)}>
                {option.label ?? text(option.value)}
              </Option>
            ))}
          </Dropdown>
        </Field>
      );
    case 'array':
      return <ArrayEditor fieldProps={{ ...fieldProps, hint: hint ?? SETTING_TEXTS.arrayOverride }} label={label} items={arrayItems(value)} inputProps={inputProps} disabled={disabled} onChange={onChange} />;
    case 'object':
      return (
        <Field {...fieldProps}>
          <Textarea {...inputProps} resize="vertical" value={text(value)} onChange={(_, data) => onChange(objectValue(data.value))} />
        </Field>
      );
    case 'file':
      return (
        <Field {...fieldProps}>
          <input
            type="file"
            disabled={disabled}
            name={setting.name}
            onChange={(event) => {
              const file = event.target.files?.[0];
              // the file is the setting's value: its text, or base64 for a BASE64-encoded setting (a key file)
              if (file) void file.arrayBuffer().then((buffer) => onChange(fileValue(setting, new Uint8Array(buffer))));
            }}
          />
        </Field>
      );
    case 'datetime':
      return (
        <Field {...fieldProps}>
          <Input {...inputProps} type="datetime-local" value={toDateTimeLocal(value)} onChange={(_, data) => onChange(fromDateTimeLocal(data.value))} />
        </Field>
      );
    case 'integer':
      return (
        <Field {...fieldProps}>
          <Input {...inputProps} type="number" inputMode="numeric" value={text(value)} onChange={(_, data) => onChange(integerValue(data.value))} />
        </Field>
      );
    case 'password':
    case 'email':
    case 'text': {
      const picker = editor === 'text' ? pickerOf(setting.name) : undefined;
      const component = oauth?.dataComponent;
      return (
        <Field {...fieldProps}>
          <Input {...inputProps} type={editor} autoComplete={editor === 'password' ? 'new-password' : 'off'} value={text(value)} onChange={(_, data) => onChange(data.value)} />
          {picker && component && oauth && (
            <PickerButton
              kind={picker}
              label={label}
              search={text(value)}
              component={component}
              authorizationUrl={oauthPart(oauth, 'authorization_url')}
              developerToken={text(oauth.properties[`${oauth.componentName}.developer_token`] ?? oauth.settings.find((s) => s.name === 'developer_token')?.value)}
              disabled={disabled}
              onPick={onChange}
            />
          )}
        </Field>
      );
    }
  }
}
