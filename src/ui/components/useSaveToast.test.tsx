// @vitest-environment happy-dom
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Fluent from '@fluentui/react-components';
import { useSaveToast } from './useSaveToast';

// How long a toast stays is Fluent's to run (a CSS animation happy-dom does not play), so the test
// records what the hook asks of Fluent's toast controller.
const dispatched: Array<{ options: unknown }> = [];
vi.mock('@fluentui/react-components', async (original) => ({
  ...(await original<typeof Fluent>()),
  useToastController: () => ({ dispatchToast: (_content: unknown, options: unknown) => dispatched.push({ options }) }),
}));

const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter>{children}</MemoryRouter>;

afterEach(() => {
  cleanup();
  dispatched.length = 0;
});

describe('useSaveToast', () => {
  it('shows a save toast for 6 s (spec 001 §9: profile, data store saved)', () => {
    const { result } = renderHook(() => useSaveToast('t'), { wrapper });
    result.current('Saved');
    expect(dispatched).toEqual([{ options: { intent: 'success', timeout: 6000 } }]);
  });

  it("shows a workspace's snackbar for the time it is given (its APP_SNACKBAR_TIMEOUT)", () => {
    const { result } = renderHook(() => useSaveToast('t', 2500), { wrapper });
    result.current('Pipeline saved', 'warning');
    expect(dispatched).toEqual([{ options: { intent: 'warning', timeout: 2500 } }]);
  });
});
