import { Body1, Button, Link, makeStyles, MessageBar, MessageBarBody, Spinner, Subtitle2, tokens, Tooltip } from '@fluentui/react-components';
import { ArrowDownloadRegular, ArrowLeftRegular } from '@fluentui/react-icons';
import { createElement, lazy, Suspense, useCallback, useContext, useMemo, type CSSProperties, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { dashboardTree, type ComponentProps, type DashNode } from '../../../domain/dashboard/allow';
import { hasLink } from '../../../domain/hal';
import { REL } from '../../../domain/relations';
import { pathTo } from '../../../domain/routes';
import { checkResourcePath, resourceFileName } from '../../../domain/workspaceResources';
import { InAppLink } from '../../components/InAppLink';
import { useDatasetByAlias, useDownloadDataset } from '../../data/datasets';
import { useDownloadResource } from '../../data/resources';
import { SessionContext } from '../../shell/session';
import { Visualisation } from '../../components/visualisation/Visualisation';

// Renders DASHBOARD_CONTENT from its allowed tree (src/domain/dashboard): HTML tags as React
// elements with the allowed props only, components from the map below, text as sanitised
// markdown. Nothing of the content is evaluated; a problem is shown where it occurred.

const Markdown = lazy(() => import('../../components/Markdown'));

const useStyles = makeStyles({
  block: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  visual: { minHeight: '240px', minWidth: 0 },
  problem: { margin: `${tokens.spacingVerticalXS} 0` },
});

function Problem({ message }: { message: string }) {
  const styles = useStyles();
  return (
    <MessageBar intent="warning" className={styles.problem}>
      <MessageBarBody>{message}</MessageBarBody>
    </MessageBar>
  );
}

function DatasetView({ workspaceId, props, mode }: { workspaceId: string; props: ComponentProps; mode: 'chart' | 'table' }) {
  const styles = useStyles();
  const loaded = useDatasetByAlias(workspaceId, props.alias ?? '');
  const datasetHref = useCallback((alias: string) => pathTo('dataset', { workspaceId, idOrAlias: alias }), [workspaceId]);
  if (loaded.state.status === 'failed') return <Problem message={loaded.state.message} />;
  if (loaded.state.status !== 'ready') return <Spinner size="small" label="Loading data" />;
  const { dataset, rows } = loaded.state.data;
  return (
    <div className={styles.block} style={props.style} aria-label={dataset.title}>
      {/* the chart draws no title of its own: without this a dashboard of charts is unlabelled */}
      <Subtitle2 as="h3">{dataset.title}</Subtitle2>
      <div className={styles.visual}>
        <Visualisation dataset={dataset} rows={rows} mode={mode} datasetHref={datasetHref} />
      </div>
      {mode === 'chart' && props.showTable === true && <Visualisation dataset={dataset} rows={rows} mode="table" datasetHref={datasetHref} />}
    </div>
  );
}

function DownloadDatasetButton({ workspaceId, props }: { workspaceId: string; props: ComponentProps }) {
  const download = useDownloadDataset(workspaceId);
  const label = props.tooltip ?? `Download ${props.alias ?? ''}`;
  return (
    <span style={props.style}>
      <Tooltip content={label} relationship="label">
        <Button icon={<ArrowDownloadRegular />} disabled={download.pending} onClick={() => void download.run(props.alias ?? '')}>
          Download
        </Button>
      </Tooltip>
      {download.error !== null && <Body1 role="alert">{download.error}</Body1>}
    </span>
  );
}

/**
 * DownloadResource: the workspace's file at `path`, fetched through its 'resources' link with the
 * bearer token and saved under its own name. Without the link (the server offers none) the button
 * is disabled and says so; a path that could never name a resource is shown as a problem.
 */
function DownloadResourceButton({ workspaceId, props }: { workspaceId: string; props: ComponentProps }) {
  const styles = useStyles();
  const workspace = useContext(SessionContext)?.workspaces.find((w) => w.id === workspaceId);
  const download = useDownloadResource();
  const checked = checkResourcePath(props.path ?? '');
  if (!checked.ok) return <Problem message={`DownloadResource: the path ${checked.message}.`} />;
  const offered = workspace !== undefined && hasLink(workspace, REL.resources);
  const label = offered ? (props.tooltip ?? `Download ${resourceFileName(checked.path)}`) : `${checked.path}: this workspace offers no resource files to download.`;
  return (
    <span style={props.style}>
      <Tooltip content={label} relationship="description">
        <Button icon={<ArrowDownloadRegular />} disabled={!offered || download.pending} onClick={() => workspace !== undefined && void download.run({ workspace, path: checked.path })}>
          {resourceFileName(checked.path)}
        </Button>
      </Tooltip>
      {download.error !== null && (
        <MessageBar intent="error" role="alert" className={styles.problem}>
          <MessageBarBody>{download.error}</MessageBarBody>
        </MessageBar>
      )}
    </span>
  );
}

function Component({ node, workspaceId, children }: { node: Extract<DashNode, { kind: 'component' }>; workspaceId: string; children: ReactNode }) {
  const navigate = useNavigate();
  const { props } = node;
  switch (node.name) {
    case 'DatasetChart':
      return <DatasetView workspaceId={workspaceId} props={props} mode="chart" />;
    case 'DatasetData':
      return <DatasetView workspaceId={workspaceId} props={props} mode="table" />;
    case 'DatasetLink':
      return (
        <span style={props.style}>
          <InAppLink to={pathTo('dataset', { workspaceId, idOrAlias: props.alias ?? '' })}>{node.children.length > 0 ? children : props.alias}</InAppLink>
        </span>
      );
    case 'Back':
      return (
        <Button appearance="subtle" icon={<ArrowLeftRegular />} style={props.style} onClick={() => void navigate(-1)}>
          {node.children.length > 0 ? children : 'Back'}
        </Button>
      );
    case 'DownloadDataset':
      return <DownloadDatasetButton workspaceId={workspaceId} props={props} />;
    case 'DownloadResource':
      return <DownloadResourceButton workspaceId={workspaceId} props={props} />;
  }
}

function Nodes({ nodes, workspaceId, inline }: { nodes: readonly DashNode[]; workspaceId: string; inline: boolean }) {
  return (
    <>
      {nodes.map((node, index) => {
        switch (node.kind) {
          case 'problem':
            return <Problem key={index} message={node.message} />;
          case 'text':
            // Text on one line inside an element is inline text; a block of text is markdown.
            if (node.text.trim() === '') return null;
            if (inline && !node.text.trim().includes('\n')) return <span key={index}>{node.text}</span>;
            return (
              <Suspense key={index} fallback={null}>
                <Markdown text={node.text} workspaceId={workspaceId} />
              </Suspense>
            );
          case 'html': {
            const { href, ...rest } = node.props;
            const children = node.children.length > 0 ? <Nodes nodes={node.children} workspaceId={workspaceId} inline /> : undefined;
            if (node.tag === 'a') {
              if (href?.startsWith('/')) return <InAppLink key={index} to={href}>{children}</InAppLink>;
              return (
                <Link key={index} href={href} target="_blank" rel="noopener noreferrer nofollow" inline {...rest} style={rest.style}>
                  {children}
                </Link>
              );
            }
            return createElement(node.tag, { key: index, ...rest, style: rest.style as CSSProperties | undefined }, children);
          }
          case 'component':
            return (
              <Component key={index} node={node} workspaceId={workspaceId}>
                <Nodes nodes={node.children} workspaceId={workspaceId} inline />
              </Component>
            );
        }
      })}
    </>
  );
}

/** The dashboard's content, rendered from the allowed tree only. */
export function DashboardContent({ source, workspaceId }: { source: string; workspaceId: string }) {
  const tree = useMemo(() => dashboardTree(source), [source]);
  return <Nodes nodes={tree} workspaceId={workspaceId} inline={false} />;
}
