import { describe, expect, it } from 'vitest';
import { REL } from './relations';

describe('REL', () => {
  it('holds the spec relation names word for word', () => {
    expect(REL).toEqual({
      self: 'self',
      newWorkspace: 'new workspace',
      updateDeleteWorkspace: 'update delete workspace',
      newApiKey: 'new apikey',
      createApiKey: 'create apikey',
      updateApiKey: 'update apikey',
      deleteApiKey: 'delete apikey',
      acceptInvitation: 'accept invitation',
      questions: 'questions',
      datacomponents: 'datacomponents',
      datastores: 'datastores',
      datastore: 'datastore',
      channels: 'channels',
      newDatastore: 'new datastore',
      newPipeline: 'new pipeline',
      pipelines: 'pipelines',
      logs: 'logs',
      deleteJob: 'delete job',
      jobs: 'jobs',
      members: 'members',
      notifications: 'notifications',
      invitations: 'invitations',
      createInvitation: 'create invitation',
      profile: 'profile',
      workspaces: 'workspaces',
      apikeys: 'apikeys',
      search: 'search',
      feed: 'feed',
      data: 'data',
      updateProfile: 'update profile',
      login: 'login',
      tags: 'tags',
      metrics: 'metrics',
      environment: 'environment',
      createJob: 'create job',
      withdrawJob: 'withdraw job',
      verifyPipeline: 'verify pipeline',
      updatePipeline: 'update pipeline',
      deletePipeline: 'delete pipeline',
      addSubscription: 'add subscription',
      deleteSubscription: 'delete subscription',
      draftPipeline: 'draft pipeline',
      createPipeline: 'create pipeline',
      dataplugins: 'dataplugins',
      availableDataplugins: 'availabledataplugins',
      addDataplugin: 'add dataplugin',
      createDatacomponent: 'create datacomponent',
      updateDatacomponent: 'update datacomponent',
      authorizeDatacomponent: 'authorize datacomponent',
      disconnectDatacomponent: 'disconnect datacomponent',
      updateDatastore: 'update datastore',
      makeDefault: 'make-default',
      deleteDatastore: 'delete datastore',
    });
  });

  it('has no two constants naming the same relation', () => {
    const names = Object.values(REL);
    expect(new Set(names).size).toBe(names.length);
  });
});
