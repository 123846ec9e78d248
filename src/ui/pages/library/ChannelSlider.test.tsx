// @vitest-environment happy-dom
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LIBRARY_TEXT } from '../../../domain/library';
import { ChannelSlider } from './ChannelSlider';

const show = (channels: Parameters<typeof ChannelSlider>[0]['channels']) =>
  render(
    <FluentProvider theme={webLightTheme}>
      <ChannelSlider channels={channels} selected={undefined} onSelect={() => undefined} />
    </FluentProvider>,
  );

afterEach(cleanup);

describe('the channel slider', () => {
  it('says why it is empty instead of a blank band (issue 38)', () => {
    show([]);
    expect(screen.queryByRole('list', { name: 'Channels' })).toBeNull();
    expect(screen.getByText(LIBRARY_TEXT.noChannelsYet)).toBeTruthy();
  });

  it('lists the channels by name', () => {
    show([{ id: 'c1', name: 'Sales', description: 'Revenue' }] as never);
    expect(screen.getByRole('list', { name: 'Channels' }).textContent).toContain('Sales');
    expect(screen.queryByText(LIBRARY_TEXT.noChannelsYet)).toBeNull();
  });
});
