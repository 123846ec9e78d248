import { Toast, ToastTitle, useToastController } from '@fluentui/react-components';
import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/** Save toasts stay 6 s (spec 001 §9); a workspace's own snackbars pass `snackbarMs(workspace)`. */
const SAVE_TOAST_MS = 6000;

export type ToastIntent = 'success' | 'warning';

/** A page's save toast on its Toaster, also showing one handed over by the navigation that led here. */
export function useSaveToast(toasterId: string, timeoutMs: number = SAVE_TOAST_MS): (message: string, intent?: ToastIntent) => void {
  const { dispatchToast } = useToastController(toasterId);
  const toast = useCallback(
    (message: string, intent: ToastIntent = 'success') =>
      dispatchToast(
        <Toast>
          <ToastTitle>{message}</ToastTitle>
        </Toast>,
        { intent, timeout: timeoutMs },
      ),
    [dispatchToast, timeoutMs],
  );
  useRouteToast(toast);
  return toast;
}

/**
 * A toast handed over by the page that navigated here ('{name} Saved' after creating a store,
 * '{name} deleted' after deleting one): shown once, then cleared from the history entry so a
 * reload or Back does not show it again.
 */
function useRouteToast(show: (message: string, intent?: ToastIntent) => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as { toast?: unknown; toastIntent?: unknown } | null;
  const message = state?.toast;
  const intent: ToastIntent = state?.toastIntent === 'warning' ? 'warning' : 'success';
  useEffect(() => {
    if (typeof message !== 'string' || message === '') return;
    show(message, intent);
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [message, intent, show, navigate, location.pathname, location.search]);
}
