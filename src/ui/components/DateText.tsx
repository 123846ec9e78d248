import { useMemo } from 'react';

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * An ISO time from the server in the reader's locale and time zone, as a <time> element whose
 * tooltip gives the full local time. Nothing is rendered for a missing or unreadable value.
 */
export function DateText({ iso, withTime = false, className }: { iso: unknown; withTime?: boolean; className?: string }) {
  const date = useMemo(() => (typeof iso === 'string' && iso !== '' ? new Date(iso) : undefined), [iso]);
  if (date === undefined || Number.isNaN(date.getTime()) || typeof iso !== 'string') return null;
  return (
    <time dateTime={iso} title={DATE_TIME.format(date)} className={className}>
      {(withTime ? DATE_TIME : DATE).format(date)}
    </time>
  );
}
