import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Clipboard } from '../machines/apiKeys/apiKeys.actors';
import { useAuthPort } from './auth/AuthBridge';
import { provideMachines, type Machines } from './machines';
import { useRuntime } from './runtime';

const MachinesContext = createContext<Machines | null>(null);

// The clipboard exists only in secure contexts; elsewhere Copy fails with a message instead of throwing.
const browserClipboard: Clipboard = {
  writeText: (text) =>
    typeof navigator !== 'undefined' && navigator.clipboard
      ? navigator.clipboard.writeText(text)
      : Promise.reject(new Error('Copying is not available in this browser.')),
};

// The browser's fetch must be called with the window as `this`.
const browserFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/** Provides every machine once, with the router, the identity bridge and the runtime services. */
export function MachinesProvider({ children }: { children: ReactNode }) {
  const { client, reporter, config } = useRuntime();
  const port = useAuthPort();
  const navigate = useNavigate();
  // A running machine keeps the actions it started with; they must reach the router's current
  // navigate, which changes with the location.
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  const machines = useMemo(
    () =>
      provideMachines({
        client,
        reporter,
        config,
        login: ({ returnTo, loginHint, screen }) => void port.login({ returnTo, loginHint, ...(screen === 'signup' ? { screen: 'signup' as const } : {}) }),
        navigate: (to, options) => void navigateRef.current(to, options),
        reload: (to) => window.location.assign(to),
        clipboard: browserClipboard,
        fetch: browserFetch,
      }),
    [client, reporter, config, port],
  );
  return <MachinesContext.Provider value={machines}>{children}</MachinesContext.Provider>;
}

/** The app's machines, effects already provided: views only start them with their input. */
export function useMachines(): Machines {
  const value = useContext(MachinesContext);
  if (!value) throw new Error('useMachines outside MachinesProvider');
  return value;
}
