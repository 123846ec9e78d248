// "Runs you can reason about" (issue 7): every job says why it ran. The server writes a
// human-readable cause into triggeredBy ('manual: Ann', 'verification: Ann', 'pipeline Orders',
// 'schedule …') and embeds the profile of whoever pressed Start; a retry says which attempt it is.

type JobCause = {
  readonly triggeredBy?: string | null | undefined;
  readonly attempt?: number | null | undefined;
  readonly maxAttempts?: number | null | undefined;
  readonly _embedded?: { readonly profile?: { readonly email?: string | null | undefined } | null | undefined } | null | undefined;
};

/** Longest cause shown; a server could send anything. */
const MAX_REASON_LENGTH = 200;
/** Longest whole line: the cause with its wording and the attempt (whose numbers a server could also make huge). */
export const MAX_REASON_LINE = MAX_REASON_LENGTH + 40;

export function jobReason(job: JobCause): string {
  const cause = clean(job.triggeredBy);
  const who = clean(job._embedded?.profile?.email);
  let reason: string;
  if (cause !== '') {
    const lower = cause.toLowerCase();
    if (lower.startsWith('pipeline ')) reason = `Triggered by ${cause}`;
    else if (lower.startsWith('manual:')) reason = `Started by ${cause.slice('manual:'.length).trim() || who || 'someone'}`;
    else if (lower.startsWith('verification:')) reason = `Verification started by ${cause.slice('verification:'.length).trim() || who || 'someone'}`;
    else if (lower.startsWith('schedule')) reason = `Scheduled: ${cause.slice('schedule'.length).trim() || 'on schedule'}`;
    else if (who !== '' && lower === 'manual') reason = `Started by ${who}`;
    else reason = cause;
  } else if (who !== '') {
    reason = `Started by ${who}`;
  } else {
    reason = 'Started';
  }
  const attempt = job.attempt;
  const max = job.maxAttempts;
  if (isCount(attempt) && isCount(max) && max > 1) reason += ` (attempt ${String(attempt)} of ${String(max)})`;
  return reason.length > MAX_REASON_LINE ? `${reason.slice(0, MAX_REASON_LINE - 1)}…` : reason;
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;
}

/** One line, no control characters, bounded: the cause is shown inline in a table cell. */
function clean(text: unknown): string {
  if (typeof text !== 'string') return '';
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > MAX_REASON_LENGTH ? `${flat.slice(0, MAX_REASON_LENGTH - 1)}…` : flat;
}
