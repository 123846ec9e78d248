import {
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { ChevronDownRegular, ChevronRightRegular } from '@fluentui/react-icons';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { embeddedList, type HalLike } from '../../../../../domain/hal';
import { TRIGGER_GRAPH_SIZE, triggerGraph, type GraphNode } from '../../../../../domain/triggerGraph';
import { latestJobOf } from '../../../../../machines/jobRun/jobRun.machine';
import { useGraphPipelines } from '../../../../data/pipelines';
import { loadMermaid } from './loadMermaid';

const storageKey = (workspaceId: string) => `triggerGraph:${workspaceId}`;

const useStyles = makeStyles({
  // A plain disclosure button, not Fluent's Accordion: one panel does not need ~20 kB on the page chunk.
  frame: { marginBottom: tokens.spacingVerticalL, border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
  toggle: { width: '100%', justifyContent: 'flex-start', fontWeight: tokens.fontWeightRegular },
  panel: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: `0 ${tokens.spacingHorizontalM} ${tokens.spacingVerticalM}` },
  canvas: {
    overflow: 'auto',
    maxHeight: '480px',
    '& svg': { display: 'block', margin: '0 auto' },
    '& g.node[role="button"]': { cursor: 'pointer' },
    '& g.node[role="button"]:focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
});

function rememberedOpen(workspaceId: string): boolean {
  try {
    return window.localStorage.getItem(storageKey(workspaceId)) === 'open';
  } catch {
    return false;
  }
}

interface Props {
  workspace: HalLike & { id: string };
  /** bumps when the list reloads (a delete), so the graph reads the workspace again */
  reload: number;
  compact: boolean;
  onSelect: (pipelineName: string) => void;
}

/** Issue 7: the workspace's trigger graph, collapsed by default, open state remembered per workspace. */
export function TriggerGraphPanel({ workspace, reload, compact, onSelect }: Props) {
  const styles = useStyles();
  const [open, setOpen] = useState(() => rememberedOpen(workspace.id));
  useEffect(() => setOpen(rememberedOpen(workspace.id)), [workspace.id]);
  const toggle = (next: boolean) => {
    setOpen(next);
    try {
      window.localStorage.setItem(storageKey(workspace.id), next ? 'open' : 'closed');
    } catch {
      // storage refused (private mode, quota): the panel still works, it is just not remembered
    }
  };

  const panelId = useId();
  return (
    <section className={styles.frame}>
      <Button
        className={styles.toggle}
        appearance="transparent"
        size="large"
        icon={open ? <ChevronDownRegular /> : <ChevronRightRegular />}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => toggle(!open)}
      >
        Trigger graph
      </Button>
      <div id={panelId} hidden={!open}>
        {open && <TriggerGraphView workspace={workspace} reload={reload} compact={compact} onSelect={onSelect} />}
      </div>
    </section>
  );
}

type Drawing = { phase: 'loading' } | { phase: 'ready'; svg: string } | { phase: 'error'; message: string };

function TriggerGraphView({ workspace, reload, compact, onSelect }: Props) {
  const styles = useStyles();
  const renderId = `trigger-graph-${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const canvas = useRef<HTMLDivElement>(null);
  const listed = useGraphPipelines(workspace, reload);
  const result = listed.data ?? null;
  const [drawn, setDrawing] = useState<Drawing>({ phase: 'loading' });
  const drawing: Drawing = listed.state.status === 'failed' ? { phase: 'error', message: listed.state.message } : listed.state.status === 'loading' ? { phase: 'loading' } : drawn;

  const graph = useMemo(() => {
    if (result === null) return null;
    const pipelines = embeddedList(result, 'pipelines').map((pipeline) => ({ ...pipeline, status: latestJobOf(pipeline)?.status ?? null }));
    return triggerGraph(pipelines, compact ? 'TB' : 'LR');
  }, [result, compact]);

  useEffect(() => {
    if (graph === null || graph.nodes.length === 0) return;
    let current = true;
    setDrawing({ phase: 'loading' });
    loadMermaid()
      .then((mermaid) => mermaid.render(renderId, graph.definition))
      .then(
        ({ svg }) => current && setDrawing({ phase: 'ready', svg }),
        (failure: unknown) => current && setDrawing({ phase: 'error', message: failure instanceof Error ? `The graph could not be drawn: ${failure.message}` : 'The graph could not be drawn.' }),
      );
    return () => {
      current = false;
    };
  }, [graph, renderId]);

  // Mermaid's SVG (sanitised: securityLevel strict) goes in as markup; the pipeline nodes then
  // become buttons here, because strict mode keeps click handlers out of the diagram text.
  const svg = drawing.phase === 'ready' ? drawing.svg : null;
  useEffect(() => {
    const element = canvas.current;
    if (element === null || svg === null || graph === null) return;
    element.innerHTML = svg;
    const byId = new Map<string, GraphNode>(graph.nodes.filter((node) => node.kind === 'pipeline').map((node) => [node.id, node]));
    const cleanups: Array<() => void> = [];
    for (const group of element.querySelectorAll<SVGGElement>('g.node')) {
      const id = /flowchart-([a-z]+\d*)-\d+$/.exec(group.id)?.[1];
      const node = id === undefined ? undefined : byId.get(id);
      if (node === undefined) continue;
      group.setAttribute('role', 'button');
      group.setAttribute('tabindex', '0');
      group.setAttribute('aria-label', `Show pipeline ${node.name}`);
      group.dataset.pipelineNode = node.name;
      const select = () => onSelect(node.name);
      const onKey = (event: KeyboardEvent) => {
        if (event.key !== 'Enter' && event.key !== ' ') return;
        event.preventDefault();
        select();
      };
      group.addEventListener('click', select);
      group.addEventListener('keydown', onKey);
      cleanups.push(() => {
        group.removeEventListener('click', select);
        group.removeEventListener('keydown', onKey);
      });
    }
    return () => {
      for (const cleanup of cleanups) cleanup();
      element.innerHTML = '';
    };
  }, [svg, graph, onSelect]);

  const total = result?.page?.totalElements ?? 0;
  return (
    <div className={styles.panel}>
      {drawing.phase === 'error' && (
        <MessageBar intent="error">
          <MessageBarBody>{drawing.message}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => listed.retry()}>Retry</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {graph !== null && graph.nodes.length === 0 ? (
        <Caption1>No pipelines yet, so nothing triggers anything.</Caption1>
      ) : (
        drawing.phase === 'loading' && <Spinner size="small" label="Drawing the trigger graph" />
      )}
      <div ref={canvas} className={styles.canvas} data-testid="trigger-graph" />
      {drawing.phase === 'ready' && (
        <Caption1>
          {total > TRIGGER_GRAPH_SIZE ? `Showing the first ${String(TRIGGER_GRAPH_SIZE)} of ${String(total)} pipelines. ` : ''}
          {graph?.truncated ? 'Some triggers are left out. ' : ''}
          An arrow runs from a pipeline to the ones its completed run starts. Select a pipeline to show it in the list.
          {compact ? ' Scroll the graph to see all of it.' : ''}
        </Caption1>
      )}
    </div>
  );
}
