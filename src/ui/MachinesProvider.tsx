import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Clipboard } from '../machines/apiKeys/apiKeys.actors';
import { useAuthPort } from './auth/AuthBridge';
import { provideAuthMachine } from './authMachine';
import type { MachineEffects, Machines, provideMachines } from './machines';
import { useRuntime } from './runtime';

/**
 * The machines for one set of effects. Only the auth machine is there from the start: the shell
 * gate needs it to choose between sign-in and the app. Every other machine is in a chunk of its own
 * (./machines with the domain and API modules behind it), loaded the first time a view asks for
 * one, so the first route does not carry the whole app (issue 21).
 */
interface MachinesCell {
  readonly effects: MachineEffects;
  readonly auth: ReturnType<typeof provideAuthMachine>;
  machines: Machines | undefined;
  loading: Promise<void> | undefined;
  /** the chunk could not be loaded: thrown to the error boundary, as React.lazy does */
  failure: Error | undefined;
}

const MachinesContext = createContext<MachinesCell | null>(null);

type MachinesModule = { provideMachines: typeof provideMachines };
let machinesModule: Promise<MachinesModule> | undefined;

/** Starts loading every machine's code (once); the signed-in app calls it beside its own chunk. */
export function preloadMachines(): Promise<MachinesModule> {
  return (machinesModule ??= import('./machines'));
}

// The clipboard exists only in secure contexts; elsewhere Copy fails with a message instead of throwing.
const browserClipboard: Clipboard = {
  writeText: (text) =>
    typeof navigator !== 'undefined' && navigator.clipboard
      ? navigator.clipboard.writeText(text)
      : Promise.reject(new Error('Copying is not available in this browser.')),
};

// The browser's fetch must be called with the window as `this`.
const browserFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/** Provides the machines once, with the router, the identity bridge and the runtime services. */
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

  const cell = useMemo<MachinesCell>(() => {
    const effects: MachineEffects = {
      client,
      reporter,
      config,
      login: ({ returnTo, loginHint, screen, notice, invitation }) => {
        // Arrived by a mailed link: its address leaves the history first, so Back from the provider
        // shows the login view rather than following the link again.
        if (notice !== undefined) void navigateRef.current(returnTo, { replace: true });
        void port.login({ returnTo, loginHint, ...(screen === 'signup' ? { screen: 'signup' as const } : {}), notice, invitation });
      },
      navigate: (to, options) => void navigateRef.current(to, options),
      reload: (to) => window.location.assign(to),
      clipboard: browserClipboard,
      fetch: browserFetch,
    };
    return { effects, auth: provideAuthMachine(effects), machines: undefined, loading: undefined, failure: undefined };
  }, [client, reporter, config, port]);
  return <MachinesContext.Provider value={cell}>{children}</MachinesContext.Provider>;
}

function useMachinesCell(): MachinesCell {
  const cell = useContext(MachinesContext);
  if (!cell) throw new Error('useMachines outside MachinesProvider');
  return cell;
}

/** The auth machine, effects provided: on the first route, so never suspends. */
export function useAuthMachine(): MachinesCell['auth'] {
  return useMachinesCell().auth;
}

/**
 * The app's machines, effects already provided: views only start them with their input. Until the
 * machines' chunk is in, the view suspends (the nearest Suspense boundary shows its fallback), as a
 * lazy component does.
 */
export function useMachines(): Machines {
  const cell = useMachinesCell();
  if (cell.machines) return cell.machines;
  if (cell.failure !== undefined) throw cell.failure;
  cell.loading ??= preloadMachines().then(
    ({ provideMachines }) => {
      cell.machines = provideMachines(cell.effects);
    },
    (error: unknown) => {
      cell.failure = error instanceof Error ? error : new Error('The app could not be loaded.');
    },
  );
  // React's Suspense protocol: a thrown promise, rendered again once it settles
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw cell.loading;
}
