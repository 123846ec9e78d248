import { Toast, ToastTitle, useToastController } from '@fluentui/react-components';
import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** Data store toasts stay 6 s (spec 001 §9: save toasts). */
const STORE_TOAST_MS = 6000;

/** The success toast of a data store page on its Toaster, also showing one handed over by navigation. */
export function useStoreToast(toasterId: string): (message: string) => void {
  const { dispatchToast } = useToastController(toasterId);
  const toast = useCallback(
    (message: string) =>
      dispatchToast(
        <Toast>
          <ToastTitle>{message}</ToastTitle>
        </Toast>,
        { intent: 'success', timeout: STORE_TOAST_MS },
      ),
    [dispatchToast],
  );
  useRouteToast(toast);
  return toast;
}

/**
 * A toast handed over by the page that navigated here ('{name} Saved' after creating a store,
 * '{name} deleted' after deleting one): shown once, then cleared from the history entry so a
 * reload or Back does not show it again.
 */
function useRouteToast(show: (message: string) => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const message = (location.state as { toast?: unknown } | null)?.toast;
  useEffect(() => {
    if (typeof message !== 'string' || message === '') return;
    show(message);
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [message, show, navigate, location.pathname, location.search]);
}
