import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, wellFormed } from './hostile.fixture';
import { canSetUp, importStepFor, labPath, nameOf, setupPath, skipPath, workspaceHomePath } from './onboarding';
import { parseRoute } from './routes';

describe('onboarding', () => {
  it('step 2 waits while not READY, skips a READY non-managed workspace, and otherwise offers the plugins', () => {
    expect(importStepFor({ status: 'PROVISIONING', managed: true })).toBe('wait');
    expect(importStepFor({ status: 'FAILED', managed: false })).toBe('wait');
    expect(importStepFor({ status: null })).toBe('wait');
    expect(importStepFor({ status: 'READY', managed: false })).toBe('skip');
    expect(importStepFor({ status: 'READY', managed: true })).toBe('choose');
    expect(importStepFor({ status: 'READY' })).toBe('choose');
  });

  it('Skip goes to /setup/tasks/{id}; Go to Lab to /lab/{id}/pipelines', () => {
    expect(skipPath('w1')).toBe('/setup/tasks/w1');
    expect(labPath('w1')).toBe('/lab/w1/pipelines');
    expect(setupPath('imports', 'w1')).toBe('/setup/imports/w1');
  });

  it('a name is saved trimmed, and a blank one is refused', () => {
    expect(nameOf('  Acme ')).toBe('Acme');
    expect(nameOf(' \t ')).toBeUndefined();
  });

  it('hostile ids and names: the paths stay onboarding routes of that workspace, names never throw', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        const name = nameOf(text);
        if (name !== undefined) expect(name).toBe(text.trim());
        const path = skipPath(text);
        if (path === '/') return;
        const match = parseRoute(path);
        expect(match?.name).toBe('setup');
        expect((match?.params as { workspaceId?: string }).workspaceId).toBe(wellFormed(text));
      }),
    );
  });
});

describe('who onboarding is for', () => {
  it("an admin's workspace (its Lab links) can be set up; a member's view of it cannot, and goes home", () => {
    expect(canSetUp({ _links: { self: { href: '/w1' }, 'new pipeline': { href: '/w1/pipelines' } } })).toBe(true);
    expect(canSetUp({ _links: { self: { href: '/w1' } } })).toBe(false);
    expect(canSetUp({})).toBe(false);
    expect(workspaceHomePath('w1')).toBe('/l/w1');
  });
});
