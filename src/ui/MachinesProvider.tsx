import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Clipboard } from '../machines/apiKeys/apiKeys.actors';
import { useAuthPort } from './auth/AuthBridge';
import { provideAuthMachine } from './authMachine';
import type { MachineArea } from './machineAreas/area';
import type { MachineEffects } from './machineEffects';
import { useRuntime } from './runtime';

/**
 * The machines for one set of effects. Only the auth machine is there from the start: the shell
 * gate needs it to choose between sign-in and the app. Every other machine belongs to an area
 * (./machineAreas) that the views using it import statically, so its code travels in their route's
 * chunks and a page loads no machine it does not use (issue 39: the Lab's editors are not in the
 * feed). An area is provided the first time a view asks for it, and once per set of effects, so
 * every view of the session starts its actors from the same provided machine.
 */
interface MachinesCell {
  readonly effects: MachineEffects;
  readonly auth: ReturnType<typeof provideAuthMachine>;
  readonly areas: Map<MachineArea<unknown>, unknown>;
}

const MachinesContext = createContext<MachinesCell | null>(null);

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
    return { effects, auth: provideAuthMachine(effects), areas: new Map() };
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

/** The machines of one area, effects already provided: views only start them with their input. */
export function useMachines<M>(area: MachineArea<M>): M {
  const cell = useMachinesCell();
  if (!cell.areas.has(area)) cell.areas.set(area, area.provide(cell.effects));
  return cell.areas.get(area) as M;
}
