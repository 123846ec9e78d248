// @vitest-environment happy-dom
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkspaceAvatar } from './WorkspaceMenu';

// A 1×1 PNG: its bytes begin with the PNG signature, as isSafeLogo checks.
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SVG = `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')}`;

const show = (imageUrl: string | null) =>
  render(
    <FluentProvider theme={webLightTheme}>
      <WorkspaceAvatar workspace={{ name: ' analytics', imageUrl }} />
    </FluentProvider>,
  ).container;

afterEach(cleanup);

describe('WorkspaceAvatar', () => {
  it('shows a PNG logo as an image', () => {
    const img = show(PNG).querySelector('[data-logo="image"] img');
    expect(img?.getAttribute('src')).toBe(PNG);
  });

  it('shows the initial without a logo, and for anything but a PNG or JPEG (an SVG with a script)', () => {
    for (const imageUrl of [null, SVG, 'https://example.com/logo.png', 'javascript:alert(1)']) {
      const container = show(imageUrl);
      expect(container.querySelector('img')).toBeNull();
      expect(container.querySelector('[data-logo="initial"]')?.textContent).toBe('A');
      cleanup();
    }
  });
});
