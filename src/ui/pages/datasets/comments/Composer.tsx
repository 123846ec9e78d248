import { Button, makeStyles, Persona, Textarea, tokens, useId } from '@fluentui/react-components';
import { useRef, useState, type KeyboardEvent } from 'react';
import { hasText, insertHandle, memberHandle, mentionAtCaret, suggestMembers } from '../../../../domain/comments';
import type { Member } from '../../../../domain/resources';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, position: 'relative' },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS },
  suggestions: {
    margin: 0,
    padding: tokens.spacingVerticalXS,
    listStyle: 'none',
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow8,
    backgroundColor: tokens.colorNeutralBackground1,
    display: 'flex',
    flexDirection: 'column',
  },
  option: { justifyContent: 'flex-start', width: '100%' },
  active: { backgroundColor: tokens.colorNeutralBackground1Selected },
});

export interface ComposerProps {
  label: string;
  /** the button's text: 'Comment', 'Reply' or 'Save' */
  action: string;
  members: readonly Member[];
  busy: boolean;
  initial?: string;
  /** set when the person may not write: the box is disabled with this placeholder */
  disabledText?: string | undefined;
  placeholder?: string;
  onSubmit: (message: string) => void;
  onCancel?: () => void;
}

/**
 * A comment box: '@' suggests workspace members by name and inserts the chosen handle, by mouse or
 * by keyboard (arrows move, Enter or Tab choose, Esc closes the list); the action button appears
 * only when there is text (spec 002 §5).
 */
export function Composer({ label, action, members, busy, initial = '', disabledText, placeholder, onSubmit, onCancel }: ComposerProps) {
  const styles = useStyles();
  const [text, setText] = useState(initial);
  const [caret, setCaret] = useState(initial.length);
  const area = useRef<HTMLTextAreaElement>(null);
  const listId = useId('members');
  const [active, setActive] = useState(0);
  // the text when Esc closed the list: it stays closed until the text changes
  const [dismissed, setDismissed] = useState<string | null>(null);
  const mention = disabledText === undefined ? mentionAtCaret(text, caret) : undefined;
  const suggestions = mention && text !== dismissed ? suggestMembers(members, mention.query) : [];
  const activeIndex = Math.min(active, suggestions.length - 1);

  const choose = (member: Member) => {
    if (!mention) return;
    const next = insertHandle(text, mention.start, caret, memberHandle(member));
    setText(next.text);
    setCaret(next.caret);
    setActive(0);
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  return (
    <div className={styles.box}>
      <Textarea
        textarea={{ ref: area }}
        aria-label={label}
        value={text}
        disabled={disabledText !== undefined || busy}
        placeholder={disabledText ?? placeholder}
        resize="vertical"
        aria-autocomplete="list"
        aria-expanded={suggestions.length > 0}
        aria-controls={suggestions.length > 0 ? listId : undefined}
        aria-activedescendant={suggestions.length > 0 ? `${listId}-${String(activeIndex)}` : undefined}
        onChange={(event, data) => {
          setText(data.value);
          setCaret(event.target.selectionStart ?? data.value.length);
          setActive(0);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart ?? text.length)}
        onKeyDown={(event: KeyboardEvent<HTMLTextAreaElement>) => {
          if (suggestions.length > 0) {
            const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
            if (step !== 0) {
              event.preventDefault();
              setActive((activeIndex + step + suggestions.length) % suggestions.length);
              return;
            }
            if (event.key === 'Enter' || event.key === 'Tab') {
              event.preventDefault();
              choose(suggestions[activeIndex]!);
              return;
            }
            if (event.key === 'Escape') {
              event.preventDefault();
              setDismissed(text);
              return;
            }
          }
          if (event.key === 'Escape' && onCancel) onCancel();
        }}
      />
      {suggestions.length > 0 && (
        <ul id={listId} className={styles.suggestions} role="listbox" aria-label="Members">
          {suggestions.map((member, index) => (
            <li key={member.id} id={`${listId}-${String(index)}`} role="option" aria-selected={index === activeIndex}>
              <Button appearance="subtle" tabIndex={-1} className={`${styles.option} ${index === activeIndex ? styles.active : ''}`} onClick={() => choose(member)}>
                <Persona size="extra-small" name={member.name} secondaryText={memberHandle(member)} />
              </Button>
            </li>
          ))}
        </ul>
      )}
      {(hasText(text) || onCancel) && (
        <div className={styles.actions}>
          {onCancel && (
            <Button disabled={busy} onClick={onCancel}>
              Cancel
            </Button>
          )}
          {hasText(text) && (
            <Button
              appearance="primary"
              disabled={busy}
              onClick={() => {
                onSubmit(text);
              }}
            >
              {action}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** Clears a composer after its comment is posted: a new key remounts it empty. */
export function useComposerKey(): [number, () => void] {
  const [key, setKey] = useState(0);
  return [key, () => setKey((k) => k + 1)];
}
