import { useEffect } from 'react';

// Notifications read or deleted on one page change the unread count the shell's bell shows: the
// inbox says so, and the bell reads its count again instead of waiting for its next poll.

const NOTIFICATIONS_CHANGED = 'workspace:notifications-changed';

export function announceNotificationsChanged(): void {
  window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
}

export function useOnNotificationsChanged(refresh: () => void): void {
  useEffect(() => {
    window.addEventListener(NOTIFICATIONS_CHANGED, refresh);
    return () => window.removeEventListener(NOTIFICATIONS_CHANGED, refresh);
  }, [refresh]);
}
