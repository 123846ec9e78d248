import { useEffect, useState } from 'react';

/**
 * The time now, ticking every second while `ticking`: a running job's elapsed time is a render of
 * the clock, not data, so a view may keep it (the History tab, onboarding's first run).
 */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
