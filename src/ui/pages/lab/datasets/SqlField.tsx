import { Caption1, makeStyles, mergeClasses, Textarea, tokens, useId } from '@fluentui/react-components';
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { applyCompletion, sqlCompletion, type CompletionOption, type CompletionTable } from '../../../../domain/sqlCompletion';

const useStyles = makeStyles({
  box: { position: 'relative', display: 'flex', flexDirection: 'column', minWidth: 0 },
  mono: { fontFamily: tokens.fontFamilyMonospace },
  suggestions: {
    position: 'absolute',
    top: '100%',
    left: 0,
    zIndex: 1,
    margin: 0,
    padding: tokens.spacingVerticalXS,
    listStyle: 'none',
    maxHeight: '220px',
    overflowY: 'auto',
    width: 'min(420px, 100%)',
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow16,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  option: {
    display: 'flex',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusSmall,
    cursor: 'pointer',
    fontFamily: tokens.fontFamilyMonospace,
  },
  active: { backgroundColor: tokens.colorNeutralBackground1Selected },
  detail: { color: tokens.colorNeutralForeground3, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
});

/** What the editor beside the field may do to it: put a name where the cursor was. */
export interface SqlFieldHandle {
  insert(name: string): void;
}

type Props = {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly tables: readonly CompletionTable[];
  readonly disabled: boolean;
  readonly handle?: Ref<SqlFieldHandle>;
};

/**
 * The dataset's SQL with autocomplete of the store's tables and columns (issue 20): suggestions as
 * the person types (or asks with Ctrl+Space), chosen with the arrows and Enter or Tab, or by
 * click; Esc closes them without closing the editor.
 */
export function SqlField({ value, onChange, tables, disabled, handle }: Props) {
  const styles = useStyles();
  const area = useRef<HTMLTextAreaElement>(null);
  const listId = useId('sql-suggestions');
  const [cursor, setCursor] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  // the text at which Esc closed the list: it stays closed until the text changes
  const [dismissed, setDismissed] = useState<string | null>(null);
  // suggestions follow typing (and Ctrl+Space), not a paste or a value set all at once
  const typing = useRef(false);

  const completion = useMemo(() => (cursor === null || dismissed === value ? null : sqlCompletion(value, cursor, tables)), [value, cursor, tables, dismissed]);
  const options = completion?.options ?? [];
  const activeIndex = Math.min(active, Math.max(options.length - 1, 0));
  // An opened list is scrolled into the drawer's view: below a field low in the drawer it was cut
  // off by the drawer's footer (issue 38). 'nearest' moves nothing when it is already in view.
  const list = useRef<HTMLUListElement>(null);
  const open = options.length > 0;
  useEffect(() => {
    if (open) list.current?.scrollIntoView?.({ block: 'nearest' });
  }, [open]);

  const place = (text: string, caret: number) => {
    onChange(text);
    setCursor(null);
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(caret, caret);
    });
  };
  const choose = (option: CompletionOption) => {
    if (!completion) return;
    const next = applyCompletion(value, completion, option);
    place(next.text, next.cursor);
  };

  useImperativeHandle(
    handle,
    () => ({
      insert(name: string) {
        const at = area.current?.selectionStart ?? value.length;
        const before = value.slice(0, at);
        const spaced = `${before === '' || /\s$/.test(before) ? '' : ' '}${name}`;
        place(`${before}${spaced}${value.slice(at)}`, at + spaced.length);
      },
    }),
    [value, onChange],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    typing.current = event.key.length === 1 || event.key === 'Backspace';
    if (event.key === ' ' && event.ctrlKey) {
      event.preventDefault();
      setDismissed(null);
      setCursor(event.currentTarget.selectionStart);
      return;
    }
    if (options.length === 0) return;
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (step !== 0) {
      event.preventDefault();
      setActive((activeIndex + step + options.length) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      choose(options[activeIndex]!);
    } else if (event.key === 'Escape') {
      // closes the suggestions, not the drawer around the field
      event.preventDefault();
      event.stopPropagation();
      setDismissed(value);
    }
  };

  return (
    <div className={styles.box}>
      <Textarea
        className={styles.mono}
        textarea={{ ref: area, className: styles.mono, spellCheck: false }}
        value={value}
        disabled={disabled}
        rows={6}
        resize="vertical"
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={options.length > 0 ? listId : undefined}
        aria-activedescendant={options.length > 0 ? `${listId}-${String(activeIndex)}` : undefined}
        onChange={(event, data) => {
          onChange(data.value);
          setCursor(typing.current ? (event.target.selectionStart ?? data.value.length) : null);
          typing.current = false;
          setActive(0);
        }}
        onSelect={(event) => {
          // a click or arrow key that moves the caret closes a list opened by typing
          const at = event.currentTarget.selectionStart ?? value.length;
          if (at !== cursor) setCursor(null);
        }}
        onBlur={() => setCursor(null)}
        onKeyDown={onKeyDown}
      />
      {options.length > 0 && (
        <ul ref={list} id={listId} className={styles.suggestions} role="listbox" aria-label="Tables and columns">
          {options.map((option, index) => (
            <li
              key={`${option.kind}:${option.label}`}
              id={`${listId}-${String(index)}`}
              role="option"
              aria-selected={index === activeIndex}
              className={mergeClasses(styles.option, index === activeIndex && styles.active)}
              // keeps the focus (and the caret) in the field
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option)}
            >
              <span>{option.label}</span>
              <Caption1 className={styles.detail}>
                {option.kind === 'table' ? 'table' : option.detail} {option.kind === 'table' ? `· ${option.detail}` : ''}
              </Caption1>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
