// Spec 001 §4 "Jobs": skipped grey, complete green, error red, running a running green, stopped
// red, anything else orange. The view maps these names to theme tokens; the rule stays here.

export type JobColour = 'grey' | 'green' | 'runningGreen' | 'red' | 'orange';

export function jobStatusColour(status: unknown): JobColour {
  switch (typeof status === 'string' ? status.toUpperCase() : '') {
    case 'SKIPPED':
      return 'grey';
    case 'COMPLETE':
      return 'green';
    case 'RUNNING':
      return 'runningGreen';
    case 'ERROR':
    case 'STOPPED':
      return 'red';
    default:
      return 'orange';
  }
}
