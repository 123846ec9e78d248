// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import fc from 'fast-check';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardContent } from './DashboardContent';

// The dashboard's renderer puts in the DOM only what the allowed tree holds: no script, no event
// handler attribute, no javascript: URL, whatever the content says.

afterEach(cleanup);

const show = (source: string) =>
  render(
    <MemoryRouter>
      <div data-testid="dashboard">
        <DashboardContent source={source} workspaceId="w1" />
      </div>
    </MemoryRouter>,
  );

function expectInert(root: HTMLElement) {
  expect(root.querySelectorAll('script, iframe, style, object, embed, form')).toHaveLength(0);
  for (const element of Array.from(root.querySelectorAll('*'))) {
    for (const attribute of Array.from(element.attributes)) {
      expect(attribute.name.startsWith('on'), `${element.tagName} ${attribute.name}`).toBe(false);
      if (attribute.name === 'href' || attribute.name === 'src') expect(attribute.value.trim().toLowerCase().startsWith('javascript')).toBe(false);
    }
  }
}

describe('DashboardContent', () => {
  it('renders allowed tags with their literal style, and problems in words', () => {
    show(`<section style={{ color: 'rgb(1, 2, 3)', position: 'fixed' }}><strong>Hello</strong></section><script>alert(1)</script><a href="javascript:alert(1)" onClick="alert(1)">x</a><Back onClick={() => alert(1)} />`);
    // inline text inside an element is a span of text
    const strong = screen.getByText('Hello').closest('strong');
    expect(strong).not.toBeNull();
    const section = strong?.closest('section');
    expect(section?.getAttribute('style')).toContain('color');
    expect(section?.getAttribute('style')).not.toContain('fixed');
    expect(screen.getByText('<script> is not allowed in the dashboard content.')).toBeTruthy();
    expect(screen.getByText(/Back: the onClick prop is a function/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
    expectInert(screen.getByTestId('dashboard'));
  });

  it('never puts a script, an event handler or a javascript: URL in the DOM (property)', () => {
    const parts = fc.constantFrom('<div>', '</div>', '<span title="t">', '</span>', '<a href="javascript:alert(1)">', '<a href="/l/w/feed">', '</a>', '<img src="x" onerror="alert(1)" />', '<script>', '</script>', 'text', '<p onclick="x">', '</p>', '<iframe>', '{', '}', ' style={{ color: "red" }}', '<b', '>', '<Back />', '<DatasetLink alias="x">go</DatasetLink>');
    fc.assert(
      fc.property(fc.array(parts, { maxLength: 25 }), (list) => {
        const { unmount } = show(list.join(''));
        expectInert(screen.getByTestId('dashboard'));
        unmount();
      }),
      { numRuns: 60 },
    );
  });
});
