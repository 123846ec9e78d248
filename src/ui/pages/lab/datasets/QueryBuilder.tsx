import {
  Button,
  Caption1,
  Dropdown,
  Field,
  Input,
  makeStyles,
  Menu,
  MenuButton,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Option,
  Spinner,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DismissRegular, LinkRegular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { AGGREGATE_FUNCTIONS, FILTER_OPERATORS, takesValue, type AggregateFunction, type FilterOperator, type QueryAggregate, type QueryFilter, type QuerySort, type QueryState } from '../../../../domain/queryBuilder';
import type { QueryEdit } from '../../../../domain/queryBuilderEdit';
import { AGGREGATE_LABELS, aggregateColumns, describeQueryBuilder, OPERATOR_LABELS, refKey, sortKeyOf, withFunction, type BuilderTable, type ColumnChoice, type SortChoice } from '../../../../domain/queryBuilderView';

// The query builder in the dataset editor (issue 38): a store table, joins along obvious keys,
// columns, filters, groups with aggregates, a sort and a limit. Every pick is one QueryEdit sent
// to the editor's machine, which writes it into the SQL; this view only reads that SQL back, and
// says so when it cannot (the SQL is then left as it is).

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  note: { color: tokens.colorNeutralForeground3 },
  part: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0, margin: 0, padding: 0, border: 'none' },
  partTitle: { fontWeight: tokens.fontWeightSemibold, padding: 0 },
  // one column on a phone, side by side where there is room
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 160px), 1fr))', gap: tokens.spacingHorizontalS, alignItems: 'end' },
  // a filter, aggregate or sort: its fields side by side, wrapping on a phone, its remove button last
  row: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    alignItems: 'flex-end',
    padding: tokens.spacingVerticalXS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  cell: { flex: '1 1 110px', minWidth: 0 },
  menu: { alignSelf: 'flex-start' },
  dropdown: { minWidth: 0, width: '100%' },
  input: { minWidth: 0, width: '100%' },
  joined: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0, overflowWrap: 'anywhere', fontFamily: tokens.fontFamilyMonospace },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  hints: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
});

type Props = {
  readonly sql: string;
  /** the store's tables; null while they are read */
  readonly tables: readonly BuilderTable[] | null;
  /** why the store's tables are not there (a failed read, no access); null when they are or will be */
  readonly tablesProblem: string | null;
  readonly onRetryTables?: () => void;
  readonly disabled: boolean;
  readonly onEdit: (edit: QueryEdit) => void;
};

const NO_TABLES: readonly BuilderTable[] = [];
const DIRECTION_LABELS = { asc: 'Ascending', desc: 'Descending' } as const;

function ColumnDropdown({ label, choices, selected, disabled, onPick }: { label: string; choices: readonly ColumnChoice[]; selected: ColumnChoice | undefined; disabled: boolean; onPick: (choice: ColumnChoice) => void }) {
  const styles = useStyles();
  return (
    <Field label={label} className={styles.cell}>
      <Dropdown
        className={styles.dropdown}
        placeholder="Pick a column"
        value={selected?.label ?? ''}
        selectedOptions={selected === undefined ? [] : [selected.key]}
        disabled={disabled || choices.length === 0}
        onOptionSelect={(_, data) => {
          const choice = choices.find((c) => c.key === data.optionValue);
          if (choice) onPick(choice);
        }}
      >
        {choices.map((choice) => (
          <Option key={choice.key} value={choice.key} text={choice.label}>
            {choice.label}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
}

function ColumnsDropdown({ label, placeholder, choices, selected, disabled, onPick }: { label: string; placeholder: string; choices: readonly ColumnChoice[]; selected: readonly ColumnChoice[]; disabled: boolean; onPick: (choices: ColumnChoice[]) => void }) {
  const styles = useStyles();
  return (
    <Field label={label}>
      <Dropdown
        className={styles.dropdown}
        multiselect
        placeholder={placeholder}
        value={selected.map((c) => c.label).join(', ')}
        selectedOptions={selected.map((c) => c.key)}
        disabled={disabled || choices.length === 0}
        // in the order picked, each once
        onOptionSelect={(_, data) => onPick(data.selectedOptions.flatMap((key) => choices.filter((c) => c.key === key)))}
      >
        {choices.map((choice) => (
          <Option key={choice.key} value={choice.key} text={choice.label}>
            {choice.label}
            {choice.type === null ? '' : ` · ${choice.type}`}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
}

/** The analyst's name for an aggregate, written when they leave the field (or press Enter), not per letter. */
function AliasField({ alias, disabled, onName }: { alias: string; disabled: boolean; onName: (alias: string) => void }) {
  const styles = useStyles();
  const [draft, setDraft] = useState(alias);
  const [shown, setShown] = useState(alias);
  // a new name from the SQL replaces what was being typed
  if (shown !== alias) {
    setShown(alias);
    setDraft(alias);
  }
  const commit = () => {
    if (draft.trim() !== '' && draft !== alias) onName(draft);
    else setDraft(alias);
  };
  return (
    <Field label="Named" className={styles.cell}>
      <Input
        className={styles.input}
        value={draft}
        disabled={disabled}
        onChange={(_, data) => setDraft(data.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          // Enter names the column; it does not save the dataset
          event.preventDefault();
          commit();
        }}
      />
    </Field>
  );
}

function FilterRow({ index, filter, columns, disabled, onEdit }: { index: number; filter: QueryFilter; columns: readonly ColumnChoice[]; disabled: boolean; onEdit: (edit: QueryEdit) => void }) {
  const styles = useStyles();
  const set = (next: Partial<QueryFilter>) => onEdit({ type: 'filter', index, filter: { ...filter, ...next } });
  const name = `Filter ${String(index + 1)}`;
  return (
    <div role="group" aria-label={name} className={styles.row}>
      <ColumnDropdown label="Column" choices={columns} selected={columns.find((c) => c.key === refKey(filter.column))} disabled={disabled} onPick={(choice) => set({ column: choice.ref })} />
      <Field label="Is" className={styles.cell}>
        <Dropdown
          className={styles.dropdown}
          value={OPERATOR_LABELS[filter.operator]}
          selectedOptions={[filter.operator]}
          disabled={disabled}
          onOptionSelect={(_, data) => data.optionValue && set({ operator: data.optionValue as FilterOperator })}
        >
          {FILTER_OPERATORS.map((operator) => (
            <Option key={operator} value={operator} text={OPERATOR_LABELS[operator]}>
              {OPERATOR_LABELS[operator]}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {takesValue(filter.operator) ? (
        <Field label="Value" className={styles.cell}>
          <Input className={styles.input} value={filter.value} disabled={disabled} onChange={(_, data) => set({ value: data.value })} />
        </Field>
      ) : null}
      <Button appearance="subtle" icon={<DismissRegular />} aria-label={`Remove ${name.toLowerCase()}`} disabled={disabled} onClick={() => onEdit({ type: 'filter', index, filter: null })} />
    </div>
  );
}

function AggregateRow({ index, aggregate, columns, disabled, onEdit }: { index: number; aggregate: QueryAggregate; columns: readonly ColumnChoice[]; disabled: boolean; onEdit: (edit: QueryEdit) => void }) {
  const styles = useStyles();
  const name = `Aggregate ${String(index + 1)}`;
  const set = (next: Partial<QueryAggregate>) => onEdit({ type: 'aggregate', index, aggregate: { ...aggregate, ...next } });
  // sums and averages add numbers up: they offer columns of numbers (and the one picked)
  const offered = (fn: AggregateFunction) => aggregateColumns(fn, columns, aggregate.column);
  const pickFn = (fn: AggregateFunction) => {
    const next = withFunction(aggregate, fn, columns);
    if (next !== null) onEdit({ type: 'aggregate', index, aggregate: next });
  };
  return (
    <div role="group" aria-label={name} className={styles.row}>
      <Field label="Aggregate" className={styles.cell}>
        <Dropdown className={styles.dropdown} value={AGGREGATE_LABELS[aggregate.fn]} selectedOptions={[aggregate.fn]} disabled={disabled} onOptionSelect={(_, data) => data.optionValue && pickFn(data.optionValue as AggregateFunction)}>
          {AGGREGATE_FUNCTIONS.map((fn) => (
            <Option key={fn} value={fn} text={AGGREGATE_LABELS[fn]} disabled={fn !== 'count' && offered(fn).length === 0}>
              {AGGREGATE_LABELS[fn]}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {aggregate.column === null ? null : (
        <ColumnDropdown label="Of column" choices={offered(aggregate.fn)} selected={columns.find((c) => c.key === refKey(aggregate.column!))} disabled={disabled} onPick={(choice) => set({ column: choice.ref })} />
      )}
      <AliasField alias={aggregate.alias} disabled={disabled} onName={(alias) => set({ alias })} />
      <Button appearance="subtle" icon={<DismissRegular />} aria-label={`Remove ${name.toLowerCase()}`} disabled={disabled} onClick={() => onEdit({ type: 'aggregate', index, aggregate: null })} />
    </div>
  );
}

function SortRow({ index, sort, choices, disabled, onEdit }: { index: number; sort: QuerySort; choices: readonly SortChoice[]; disabled: boolean; onEdit: (edit: QueryEdit) => void }) {
  const styles = useStyles();
  const name = `Sort ${String(index + 1)}`;
  const key = sortKeyOf(sort.key);
  return (
    <div role="group" aria-label={name} className={styles.row}>
      <Field label="By" className={styles.cell}>
        <Dropdown
          className={styles.dropdown}
          value={choices.find((c) => c.key === key)?.label ?? ''}
          selectedOptions={[key]}
          disabled={disabled}
          onOptionSelect={(_, data) => {
            const choice = choices.find((c) => c.key === data.optionValue);
            if (choice) onEdit({ type: 'sort', index, sort: { ...sort, key: choice.sortKey } });
          }}
        >
          {choices.map((choice) => (
            <Option key={choice.key} value={choice.key} text={choice.label}>
              {choice.label}
            </Option>
          ))}
        </Dropdown>
      </Field>
      <Field label="Order" className={styles.cell}>
        <Dropdown
          className={styles.dropdown}
          value={DIRECTION_LABELS[sort.direction]}
          selectedOptions={[sort.direction]}
          disabled={disabled}
          onOptionSelect={(_, data) => (data.optionValue === 'asc' || data.optionValue === 'desc') && onEdit({ type: 'sort', index, sort: { ...sort, direction: data.optionValue } })}
        >
          <Option value="asc">{DIRECTION_LABELS.asc}</Option>
          <Option value="desc">{DIRECTION_LABELS.desc}</Option>
        </Dropdown>
      </Field>
      <Button appearance="subtle" icon={<DismissRegular />} aria-label={`Remove ${name.toLowerCase()}`} disabled={disabled} onClick={() => onEdit({ type: 'sort', index, sort: null })} />
    </div>
  );
}

/** The builder's parts once a table is picked. */
function Parts({ state, view, disabled, onEdit }: { state: QueryState; view: Extract<ReturnType<typeof describeQueryBuilder>, { ok: true }>; disabled: boolean; onEdit: (edit: QueryEdit) => void }) {
  const styles = useStyles();
  const { columns, summarised, sortChoices, joinChoices, joined } = view;
  const picked = (refs: QueryState['columns']) => refs.flatMap((ref) => columns.filter((c) => c.key === refKey(ref)));
  const firstColumn = columns[0];
  const unsorted = sortChoices.find((choice) => !state.sort.some((s) => sortKeyOf(s.key) === choice.key));
  return (
    <>
      {(joined.length > 0 || joinChoices.length > 0) && (
        <fieldset className={styles.part}>
          <legend className={styles.partTitle}>Joined tables</legend>
          {joined.map((join) => (
            <div key={join.table} className={styles.joined}>
              <LinkRegular aria-hidden />
              <span>{join.label}</span>
              <Button appearance="subtle" size="small" icon={<DismissRegular />} aria-label={`Remove the join of ${join.table}`} disabled={disabled} onClick={() => onEdit({ type: 'removeJoin', table: join.table })} />
            </div>
          ))}
          {joinChoices.length > 0 && (
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <MenuButton className={styles.menu} icon={<AddRegular />} disabled={disabled}>
                  Join a table
                </MenuButton>
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  {joinChoices.map((choice) => (
                    <MenuItem key={choice.key} onClick={() => onEdit({ type: 'join', join: choice.join })}>
                      {choice.label}
                    </MenuItem>
                  ))}
                </MenuList>
              </MenuPopover>
            </Menu>
          )}
        </fieldset>
      )}

      <ColumnsDropdown
        label="Columns"
        placeholder={summarised ? 'The groups and aggregates' : 'All columns'}
        choices={columns}
        selected={picked(state.columns)}
        disabled={disabled || summarised}
        onPick={(choices) => onEdit({ type: 'columns', columns: choices.map((c) => c.ref) })}
      />

      <fieldset className={styles.part}>
        <legend className={styles.partTitle}>Filters</legend>
        {state.filters.length === 0 && <Caption1 className={styles.note}>Every row. Contains and starts with ignore case.</Caption1>}
        {state.filters.map((filter, index) => (
          <FilterRow key={index} index={index} filter={filter} columns={columns} disabled={disabled} onEdit={onEdit} />
        ))}
        <div className={styles.actions}>
          <Button icon={<AddRegular />} disabled={disabled || firstColumn === undefined} onClick={() => firstColumn && onEdit({ type: 'filter', index: state.filters.length, filter: { column: firstColumn.ref, operator: '=', value: '' } })}>
            Add filter
          </Button>
        </div>
      </fieldset>

      <fieldset className={styles.part}>
        <legend className={styles.partTitle}>Summarise</legend>
        <ColumnsDropdown label="Group by" placeholder="No groups" choices={columns} selected={picked(state.groupBy)} disabled={disabled} onPick={(choices) => onEdit({ type: 'groupBy', columns: choices.map((c) => c.ref) })} />
        {state.aggregates.map((aggregate, index) => (
          <AggregateRow key={index} index={index} aggregate={aggregate} columns={columns} disabled={disabled} onEdit={onEdit} />
        ))}
        <div className={styles.actions}>
          <Button icon={<AddRegular />} disabled={disabled} onClick={() => onEdit({ type: 'aggregate', index: state.aggregates.length, aggregate: { fn: 'count', column: null, alias: '' } })}>
            Add aggregate
          </Button>
        </div>
      </fieldset>

      <fieldset className={styles.part}>
        <legend className={styles.partTitle}>Sort and limit</legend>
        {state.sort.map((sort, index) => (
          <SortRow key={index} index={index} sort={sort} choices={sortChoices} disabled={disabled} onEdit={onEdit} />
        ))}
        <div className={styles.grid}>
          <div className={styles.actions}>
            <Button icon={<AddRegular />} disabled={disabled || unsorted === undefined} onClick={() => unsorted && onEdit({ type: 'sort', index: state.sort.length, sort: { key: unsorted.sortKey, direction: 'asc' } })}>
              Add sort
            </Button>
          </div>
          <Field label="Rows at most">
            <Input
              className={styles.input}
              type="number"
              min={1}
              inputMode="numeric"
              placeholder="No limit"
              value={state.limit === null ? '' : String(state.limit)}
              disabled={disabled}
              onChange={(_, data) => onEdit({ type: 'limit', limit: data.value.trim() === '' ? null : Number(data.value) })}
            />
          </Field>
        </div>
      </fieldset>
    </>
  );
}

/** The builder, or why it leaves the SQL alone. */
export function QueryBuilder({ sql, tables, tablesProblem, onRetryTables, disabled, onEdit }: Props) {
  const styles = useStyles();
  const view = useMemo(() => describeQueryBuilder(sql, tables ?? NO_TABLES), [sql, tables]);
  if (!view.ok) {
    return (
      <section className={styles.section} aria-label="Query builder">
        <Subtitle2>Query builder</Subtitle2>
        <MessageBar intent="warning">
          <MessageBarBody>
            <MessageBarTitle>The builder cannot read this SQL.</MessageBarTitle>
            {view.problem} It is left as it is: edit it as SQL, or empty it to build a new query.
          </MessageBarBody>
        </MessageBar>
      </section>
    );
  }
  const { state, hints } = view;
  return (
    <section className={styles.section} aria-label="Query builder">
      <Subtitle2>Query builder</Subtitle2>
      <Caption1 className={styles.note}>Picks write the SQL; edits to the SQL show here.</Caption1>
      {tablesProblem !== null ? (
        <MessageBar intent="warning">
          <MessageBarBody>{tablesProblem}</MessageBarBody>
          {onRetryTables && (
            <MessageBarActions>
              <Button onClick={onRetryTables}>Retry</Button>
            </MessageBarActions>
          )}
        </MessageBar>
      ) : (
        tables === null && <Spinner size="tiny" label="Reading the store's tables" />
      )}
      <Field label="Table">
        <Dropdown
          className={styles.dropdown}
          placeholder="Pick a table"
          value={state?.table ?? ''}
          selectedOptions={state === null ? [] : [state.table]}
          disabled={disabled || view.tables.length === 0}
          onOptionSelect={(_, data) => data.optionValue && onEdit({ type: 'table', table: data.optionValue })}
        >
          {view.tables.map((table) => (
            <Option key={table} value={table}>
              {table}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {state !== null && <Parts state={state} view={view} disabled={disabled} onEdit={onEdit} />}
      {hints.length > 0 && tables !== null && (
        <MessageBar intent="info">
          <MessageBarBody>
            <ul className={styles.hints} aria-label="What the query still needs">
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

