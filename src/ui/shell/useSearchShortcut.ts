import { useEffect } from 'react';
import { isSearchShortcut } from '../../domain/searchQuery';

/** Whether the key press lands in something the person is typing into. */
function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"], [role="textbox"]') !== null;
}

/** Calls `jump` on '/' (outside a text field) or Ctrl+K / ⌘K; null registers nothing. */
export function useSearchShortcut(jump: (() => void) | null): void {
  useEffect(() => {
    if (jump === null) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !isSearchShortcut(event, typingInField(event.target))) return;
      event.preventDefault();
      jump();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [jump]);
}
