import {
  Caption1,
  Dropdown,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Option,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { useMemo } from 'react';
import { BUILDER_KIND_LABELS, BUILDER_KINDS, PALETTE_COLOUR_NAMES, type BuilderKind, type BuilderTexts, type ChartEdit } from '../../../../domain/chartBuilder';
import type { BuilderSource } from '../../../../domain/chartBuilderColumns';
import { describeChartBuilder, kindLabel, type ColourSlot, type ColumnOption } from '../../../../domain/chartBuilderView';
import type { Rgb } from '../../../../domain/visualisation/metadata';
import { cssColour, DEFAULT_PALETTE } from '../../../../domain/visualisation/palette';

// The chart builder in the dataset editor (issue 20): chart type, label and value columns from the
// preview, their labels and colours. Every choice is one ChartEdit sent to the editor's machine,
// which writes it into the visualisation and metadata JSON; this view only reads that JSON back.

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  // one column on a phone, side by side where there is room
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 200px), 1fr))', gap: tokens.spacingHorizontalM, alignItems: 'start' },
  dropdown: { minWidth: 0, width: '100%' },
  swatch: {
    display: 'inline-block',
    width: '14px',
    height: '14px',
    flexShrink: 0,
    borderRadius: tokens.borderRadiusSmall,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    marginRight: tokens.spacingHorizontalS,
    verticalAlign: 'middle',
  },
  colourRow: { display: 'flex', alignItems: 'center', minWidth: 0 },
  note: { color: tokens.colorNeutralForeground3 },
  hints: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
});

type Props = {
  readonly texts: BuilderTexts;
  readonly source: BuilderSource;
  readonly disabled: boolean;
  readonly onEdit: (edit: ChartEdit) => void;
};

function Swatch({ colour }: { colour: Rgb }) {
  const styles = useStyles();
  return <span aria-hidden className={styles.swatch} style={{ backgroundColor: cssColour(colour) }} />;
}

function ColumnPicker({ label, hint, options, selected, disabled, onChange }: { label: string; hint: string; options: readonly ColumnOption[]; selected: readonly string[]; disabled: boolean; onChange: (keys: string[]) => void }) {
  const styles = useStyles();
  return (
    <Field label={label} hint={hint}>
      <Dropdown
        className={styles.dropdown}
        multiselect
        placeholder={options.length === 0 ? 'No columns yet' : 'Pick columns'}
        value={selected.join(', ')}
        selectedOptions={[...selected]}
        disabled={disabled || options.length === 0}
        onOptionSelect={(_, data) => onChange(data.selectedOptions)}
      >
        {options.map((option) => (
          <Option key={option.key} value={option.key} text={option.key}>
            {option.key}
            {option.numeric ? ' · numbers' : ''}
            {option.inPreview ? '' : ' (not in the preview)'}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
}

function ColourPicker({ slot, index, disabled, onEdit }: { slot: ColourSlot; index: number; disabled: boolean; onEdit: (edit: ChartEdit) => void }) {
  const styles = useStyles();
  const name = slot.colourName ?? `Custom ${cssColour(slot.colour)}`;
  return (
    <Field label={`Colour of ${slot.label === '' ? String(index + 1) : slot.label}`}>
      {/* Field gives its label to the dropdown through context, so the swatch may sit beside it */}
      <div className={styles.colourRow}>
        <Swatch colour={slot.colour} />
        <Dropdown
          className={styles.dropdown}
          value={name}
          selectedOptions={slot.colourName === null ? [] : [slot.colourName]}
          disabled={disabled}
          onOptionSelect={(_, data) => {
            const colour = DEFAULT_PALETTE[PALETTE_COLOUR_NAMES.indexOf(data.optionValue as (typeof PALETTE_COLOUR_NAMES)[number])];
            if (colour) onEdit({ type: 'colour', index, colour });
          }}
        >
          {PALETTE_COLOUR_NAMES.map((colourName, i) => (
            <Option key={colourName} value={colourName} text={colourName}>
              <Swatch colour={DEFAULT_PALETTE[i] ?? [0, 0, 0]} />
              {colourName}
            </Option>
          ))}
        </Dropdown>
      </div>
    </Field>
  );
}

/** The builder, or why it leaves the JSON alone. */
export function ChartBuilder({ texts, source, disabled, onEdit }: Props) {
  const styles = useStyles();
  const view = useMemo(() => describeChartBuilder(texts, source), [texts, source]);
  if (!view.ok) {
    return (
      <section className={styles.section} aria-label="Chart builder">
        <Subtitle2>Chart builder</Subtitle2>
        <MessageBar intent="warning">
          <MessageBarBody>
            <MessageBarTitle>The builder cannot read this JSON.</MessageBarTitle>
            {view.problem} It is left as it is: edit it below, or empty both JSON fields to build a new chart.
          </MessageBarBody>
        </MessageBar>
      </section>
    );
  }
  const { state, options, labelKeys, valueKeys, colourSlots, hints } = view;
  const relabel = (role: 'label' | 'value', keys: readonly string[], columns: typeof state.labels) =>
    columns.map((column, index) => (
      <Field key={`${role}-${String(index)}`} label={`Label for ${keys[index] ?? column.name}`}>
        <Input value={column.label ?? ''} placeholder={column.name} disabled={disabled} onChange={(_, data) => onEdit({ type: 'columnLabel', role, index, label: data.value })} />
      </Field>
    ));
  return (
    <section className={styles.section} aria-label="Chart builder">
      <Subtitle2>Chart builder</Subtitle2>
      <Caption1 className={styles.note}>Picks write the visualisation and metadata JSON below; edits to the JSON show here.</Caption1>
      <div className={styles.grid}>
        <Field label="Chart type">
          <Dropdown
            className={styles.dropdown}
            placeholder="Pick a chart type"
            value={kindLabel(state.kind)}
            selectedOptions={state.kind === null ? [] : [state.kind]}
            disabled={disabled}
            onOptionSelect={(_, data) => data.optionValue && onEdit({ type: 'kind', kind: data.optionValue as BuilderKind })}
          >
            {BUILDER_KINDS.map((kind) => (
              <Option key={kind} value={kind}>
                {BUILDER_KIND_LABELS[kind]}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <ColumnPicker label="Label columns" hint="Name each bar, slice or point" options={options} selected={labelKeys} disabled={disabled} onChange={(keys) => onEdit({ type: 'labelColumns', keys })} />
        <ColumnPicker label="Value columns" hint="The numbers drawn, a series each" options={options} selected={valueKeys} disabled={disabled} onChange={(keys) => onEdit({ type: 'valueColumns', keys })} />
      </div>
      {state.labels.length + state.values.length > 0 && (
        <div className={styles.grid}>
          {relabel('label', labelKeys, state.labels)}
          {relabel('value', valueKeys, state.values)}
        </div>
      )}
      {colourSlots.length > 0 && (
        <div className={styles.grid}>
          {colourSlots.map((slot, index) => (
            <ColourPicker key={index} slot={slot} index={index} disabled={disabled} onEdit={onEdit} />
          ))}
        </div>
      )}
      {hints.length > 0 && (
        <MessageBar intent="info">
          <MessageBarBody>
            <ul className={styles.hints} aria-label="What the chart still needs">
              {hints.map((hint) => (
                <li key={hint}>{hint}</li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      )}
    </section>
  );
}
