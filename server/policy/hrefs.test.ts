import { describe, expect, it } from 'vitest';
import { hrefs } from './hrefs';

// Every href the API offers, written out in full: the paths the routes answer (issue 40, item 4).
const A = 'https://data.example/api';
// an id that needs encoding in a path segment
const odd = 'a/b c?#';
const oddSeg = 'a%2Fb%20c%3F%23';

describe('hrefs', () => {
  it('writes each resource under <publicUrl>/api, encoding every id as one segment', () => {
    // made inside the test, so that Stryker counts each href function as this test's
    const h = hrefs({ publicUrl: 'https://data.example' });
    const table: [string, string][] = [
      [h.root(), `${A}/`],
      [h.profile(odd), `${A}/profiles/${oddSeg}`],
      [h.profiles(), `${A}/profiles`],
      [h.profileLogin(odd), `${A}/profiles/${oddSeg}/login`],
      [h.workspaces(), `${A}/workspaces`],
      [h.workspace(odd), `${A}/workspaces/${oddSeg}`],
      [h.workspacePart(odd, 'news/tags'), `${A}/workspaces/${oddSeg}/news/tags`],
      [h.job(odd), `${A}/jobs/${oddSeg}`],
      [h.jobLogs(odd), `${A}/jobs/${oddSeg}/logs`],
      [h.notifications(), `${A}/notifications`],
      [h.notification(odd), `${A}/notifications/${oddSeg}`],
      [h.invitations(), `${A}/invitations`],
      [h.invitations(''), `${A}/invitations`],
      [h.invitations('a+b@x.org'), `${A}/invitations?email=a%2Bb%40x.org`],
      [h.invitation(odd), `${A}/invitations/${oddSeg}`],
      [h.invitationPart(odd, 'accepted'), `${A}/invitations/${oddSeg}/accepted`],
      [h.notificationPart(odd, 'resolved'), `${A}/notifications/${oddSeg}/resolved`],
      [h.notificationSettings(), `${A}/notification-settings`],
      [h.apiKeys(), `${A}/apikeys`],
      [h.apiKey(odd), `${A}/apikeys/${oddSeg}`],
      [h.dataset(odd), `${A}/datasets/${oddSeg}`],
      [h.datasetData(odd), `${A}/datasets/${oddSeg}/data`],
      [h.datasetPart(odd, 'lineage'), `${A}/datasets/${oddSeg}/lineage`],
      [h.channel(odd), `${A}/channels/${oddSeg}`],
      [h.comment(odd), `${A}/comments/${oddSeg}`],
      [h.commentPart(odd, 'likes'), `${A}/comments/${oddSeg}/likes`],
      [h.channelPart(odd, 'datasets'), `${A}/channels/${oddSeg}/datasets`],
      [h.pipeline(odd), `${A}/pipelines/${oddSeg}`],
      [h.pipelinePart(odd, 'jobs'), `${A}/pipelines/${oddSeg}/jobs`],
      [h.newPipeline(odd, 'p 1'), `${A}/workspaces/${oddSeg}/pipelines/p%201`],
      [h.jobStopped(odd), `${A}/jobs/${oddSeg}/stopped`],
      [h.dataComponent(odd), `${A}/datacomponents/${oddSeg}`],
      [h.dataStore(odd), `${A}/datastores/${oddSeg}`],
      // a workspace plugin's id keeps its slash, each side encoded
      [h.dataPlugin(odd, 'extractors/tap x--v 1'), `${A}/workspaces/${oddSeg}/dataplugins/extractors/tap%20x--v%201`],
      [h.dataPlugins(), `${A}/dataplugins`],
      // a global plugin's id is one segment
      [h.globalDataPlugin('extractors/tap--v'), `${A}/dataplugins/extractors%2Ftap--v`],
      [h.oauthToken('{provider}'), `${A}/tokens/{provider}/token`],
      [h.oauthToken('g/oogle'), `${A}/tokens/g%2Foogle/token`],
      [h.dataComponentCredentials(odd), `${A}/datacomponents/${oddSeg}/credentials`],
      [h.subscriptions(), `${A}/subscriptions`],
      [h.subscription(odd), `${A}/subscriptions/${oddSeg}`],
      [h.member(odd, 'auth0|1'), `${A}/workspaces/${oddSeg}/members/auth0%7C1`],
      [h.administrator(odd, 'auth0|1'), `${A}/workspaces/${oddSeg}/administrators/auth0%7C1`],
      [h.alert(odd), `${A}/alerts/${oddSeg}`],
      [h.tag(odd, 't/1'), `${A}/workspaces/${oddSeg}/tags/t%2F1`],
      [h.discovery(), `${A}/discovery.yml`],
      [h.resource(odd, '{path}'), `${A}/workspaces/${oddSeg}/resources/{path}`],
      [h.resource('w', 'docs/a b.csv'), `${A}/workspaces/w/resources/docs/a%20b.csv`],
    ];
    for (const [written, expected] of table) expect(written).toBe(expected);
  });
});
