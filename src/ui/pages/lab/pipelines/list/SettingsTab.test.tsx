// @vitest-environment happy-dom
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../../../../domain/resources';
import { SettingsTab } from './SettingsTab';

const show = (pipeline: Pipeline) =>
  render(
    <FluentProvider theme={webLightTheme}>
      <SettingsTab pipeline={pipeline} />
    </FluentProvider>,
  ).container;

afterEach(cleanup);

describe("a pipeline row's Settings tab", () => {
  it("lists what the pipeline sets, by component, and says a component with nothing set runs with its own settings", () => {
    const container = show({
      id: 'p1',
      name: 'Demo',
      dataComponents: ['tap-demo', 'target-store'],
      properties: { 'target-store.table_prefix': 'demo_', 'target-store.batch_size': 500 },
      _links: {},
    });
    const sections = [...container.querySelectorAll('section')];
    expect(sections.map((s) => s.querySelector('h3')?.textContent)).toEqual(['tap-demo', 'target-store']);
    expect(sections[0]?.textContent).toContain("runs with the component's own settings, shown under Environment");
    expect([...sections[1]!.querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['table_prefix', 'batch_size']);
    expect([...sections[1]!.querySelectorAll('dd')].map((d) => d.textContent)).toEqual(['demo_', '500']);
    expect(container.textContent).not.toContain('No settings');
  });

  it('says when the pipeline has no components at all', () => {
    expect(show({ id: 'p2', name: 'Empty', dataComponents: [], properties: {}, _links: {} }).textContent).toBe('This pipeline has no components yet.');
  });
});
