import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/**
 * A toast handed over by the page that navigated here ('{name} Saved' after creating a store,
 * '{name} deleted' after deleting one): shown once, then cleared from the history entry so a
 * reload or Back does not show it again.
 */
export function useRouteToast(show: (message: string) => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const message = (location.state as { toast?: unknown } | null)?.toast;
  useEffect(() => {
    if (typeof message !== 'string' || message === '') return;
    show(message);
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [message, show, navigate, location.pathname, location.search]);
}
