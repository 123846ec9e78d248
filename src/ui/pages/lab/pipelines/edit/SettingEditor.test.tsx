// @vitest-environment happy-dom
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingEditor } from './SettingEditor';

// A list setting (tap-files' Files) as the pipeline form shows it (issue 38: 'Add value' put the
// literal text 'value' in the list, and an item left empty would have been saved).
const FILES = { name: 'paths', label: 'Files', kind: 'ARRAY', description: 'Files or directories.' };

function show(value: unknown) {
  const onChange = vi.fn();
  const view = render(
    <FluentProvider theme={webLightTheme}>
      <SettingEditor setting={FILES} value={value} error={undefined} disabled={false} onChange={onChange} />
    </FluentProvider>,
  );
  return { onChange, rerender: (next: unknown) => view.rerender(<FluentProvider theme={webLightTheme}><SettingEditor setting={FILES} value={next} error={undefined} disabled={false} onChange={onChange} /></FluentProvider>) };
}

afterEach(cleanup);

describe('a list setting', () => {
  it("'Add value' opens an empty item, saved only once typed into; dismissed, nothing changes", () => {
    const { onChange, rerender } = show(['countries.csv']);
    fireEvent.click(screen.getByRole('button', { name: 'Add value' }));
    const added = screen.getByRole('textbox', { name: 'Files 2' });
    expect((added as HTMLInputElement).value).toBe('');
    expect(onChange).not.toHaveBeenCalled();
    // one empty item at a time
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add value' }).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Files 2' }));
    expect(screen.queryByRole('textbox', { name: 'Files 2' })).toBeNull();
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Add value' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Files 2' }), { target: { value: 'u' } });
    expect(onChange).toHaveBeenLastCalledWith(['countries.csv', 'u']);
    rerender(['countries.csv', 'u']);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Files 2' }).value).toBe('u');
    expect(screen.queryByRole('textbox', { name: 'Files 3' })).toBeNull();
  });

  it('starts empty for a new component, with no item at all', () => {
    show(undefined);
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByDisplayValue('value')).toBeNull();
  });
});
