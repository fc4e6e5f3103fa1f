import { shortId } from './names';
import type { ResourceProvider } from './provider';

/**
 * API Gateway resources only need ids here: the gateway router reads the
 * routes, integrations and methods from the stacks when a request arrives.
 */

export const httpApiProvider: ResourceProvider = {
  replaceOn: ['ProtocolType'],
  create(properties, context) {
    const id = shortId();
    const scheme = properties.ProtocolType === 'WEBSOCKET' ? 'wss' : 'https';
    return { physicalId: id, attributes: { ApiId: id, ApiEndpoint: `${scheme}://${id}.execute-api.${context.region}.amazonaws.com` } };
  },
};

export const httpApiStageProvider: ResourceProvider = {
  replaceOn: ['ApiId', 'StageName'],
  create(properties) {
    return { physicalId: String(properties.StageName ?? '$default') };
  },
};

export const httpApiIntegrationProvider: ResourceProvider = {
  replaceOn: ['ApiId'],
  create() {
    const id = shortId(7);
    return { physicalId: id, attributes: { IntegrationId: id } };
  },
};

export const httpApiRouteProvider: ResourceProvider = {
  replaceOn: ['ApiId'],
  create() {
    const id = shortId(7);
    return { physicalId: id, attributes: { RouteId: id } };
  },
};

export const httpApiAuthorizerProvider: ResourceProvider = {
  replaceOn: ['ApiId'],
  create() {
    const id = shortId(6);
    return { physicalId: id, attributes: { AuthorizerId: id } };
  },
};

export const restApiProvider: ResourceProvider = {
  create() {
    const id = shortId();
    return { physicalId: id, attributes: { RestApiId: id, RootResourceId: shortId() } };
  },
};

export const restApiResourceProvider: ResourceProvider = {
  replaceOn: ['RestApiId', 'ParentId', 'PathPart'],
  create() {
    const id = shortId(6);
    return { physicalId: id, attributes: { ResourceId: id } };
  },
};

export const restApiMethodProvider: ResourceProvider = {
  replaceOn: ['RestApiId', 'ResourceId', 'HttpMethod'],
  create(properties) {
    return { physicalId: `${String(properties.RestApiId)}-${String(properties.ResourceId)}-${String(properties.HttpMethod)}` };
  },
};

export const restApiDeploymentProvider: ResourceProvider = {
  replaceOn: ['RestApiId'],
  create() {
    const id = shortId(6);
    return { physicalId: id, attributes: { DeploymentId: id } };
  },
};

export const restApiStageProvider: ResourceProvider = {
  replaceOn: ['RestApiId', 'StageName'],
  create(properties) {
    return { physicalId: String(properties.StageName) };
  },
};
