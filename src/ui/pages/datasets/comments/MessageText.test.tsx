// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import fc from 'fast-check';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hostileString } from '../../../../domain/hostile.fixture';
import type { Member } from '../../../../domain/resources';
import { Composer } from './Composer';
import { MessageText } from './MessageText';

afterEach(cleanup);

const members: Member[] = [
  { id: 'p1', name: 'Olivia Owner', handle: '@olivia' },
  { id: 'p2', name: 'Max Member', handle: '@max' },
];

const renderMessage = (message: string) =>
  render(
    <MemoryRouter>
      <MessageText message={message} workspaceId="w1" members={members} />
    </MemoryRouter>,
  );

describe('MessageText', () => {
  it('shows member handles as names, unknown handles as typed, tags as links to the tag search', () => {
    renderMessage('Hi @max and @ghost, see #Finance');
    expect(screen.getByText('Max Member').getAttribute('title')).toBe('@max');
    expect(screen.getByText(/@ghost/)).toBeTruthy();
    expect(screen.getByRole('link', { name: '#Finance' }).getAttribute('href')).toBe('/l/w1/explore?search=%22tag%3Afinance%22');
  });

  it('never turns a message into elements: markup stays text', () => {
    const { container } = renderMessage('<img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">x</a>');
    expect(container.querySelectorAll('img, script, a').length).toBe(0);
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('renders any hostile text exactly, with no element beyond its own links and names', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        const { container, unmount } = renderMessage(text);
        expect(container.textContent).toBe(text);
        expect(container.querySelectorAll('img, script, iframe, svg, style').length).toBe(0);
        unmount();
      }),
      { numRuns: 40 },
    );
  });
});

describe('Composer', () => {
  it('shows the action only with text, suggests members on @ and inserts the handle', () => {
    const submit = vi.fn();
    render(<Composer label="Comment" action="Comment" members={members} busy={false} onSubmit={submit} />);
    expect(screen.queryByRole('button', { name: 'Comment' })).toBeNull();
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: 'Hey @ol', selectionStart: 7 } });
    fireEvent.click(screen.getByRole('button', { name: /Olivia Owner/ }));
    expect(box.value).toBe('Hey @olivia ');
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    expect(submit).toHaveBeenCalledWith('Hey @olivia ');
  });

  it('is disabled with the read-only text', () => {
    render(<Composer label="Comment" action="Comment" members={members} busy={false} disabledText="Comments are disabled for this workspace" onSubmit={vi.fn()} />);
    const box = screen.getByRole('textbox', { name: 'Comment' });
    expect(box.hasAttribute('disabled')).toBe(true);
    expect(box.getAttribute('placeholder')).toBe('Comments are disabled for this workspace');
  });
});
