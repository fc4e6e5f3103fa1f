import { randomBytes } from 'node:crypto';
import { shortId } from './names';
import type { ResourceProvider } from './provider';

/**
 * API Gateway resources only need ids here: the gateway router reads the
 * routes, integrations and methods from the stacks when a request arrives.
 */

/** A resource whose physical id is a generated API Gateway id, also given as one attribute. */
function idProvider(attribute: string, length: number, replaceOn: readonly string[]): ResourceProvider {
  return {
    replaceOn,
    create() {
      const id = shortId(length);
      return { physicalId: id, attributes: { [attribute]: id } };
    },
  };
}

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

export const httpApiIntegrationProvider = idProvider('IntegrationId', 7, ['ApiId']);

export const httpApiRouteProvider = idProvider('RouteId', 7, ['ApiId']);

export const httpApiAuthorizerProvider = idProvider('AuthorizerId', 6, ['ApiId']);

/** A deployment changes nothing locally: routes answer as soon as they exist. */
export const httpApiDeploymentProvider = idProvider('DeploymentId', 6, ['ApiId']);

/** A WebSocket route's response: the gateway sends the route function's answer back to the client. */
export const httpApiRouteResponseProvider = idProvider('RouteResponseId', 6, ['ApiId', 'RouteId']);

export const restApiProvider: ResourceProvider = {
  create() {
    const id = shortId();
    return { physicalId: id, attributes: { RestApiId: id, RootResourceId: shortId() } };
  },
};

export const restApiResourceProvider = idProvider('ResourceId', 6, ['RestApiId', 'ParentId', 'PathPart']);

export const restApiMethodProvider: ResourceProvider = {
  replaceOn: ['RestApiId', 'ResourceId', 'HttpMethod'],
  create(properties) {
    return { physicalId: `${String(properties.RestApiId)}-${String(properties.ResourceId)}-${String(properties.HttpMethod)}` };
  },
};

export const restApiDeploymentProvider = idProvider('DeploymentId', 6, ['RestApiId']);

export const restApiStageProvider: ResourceProvider = {
  replaceOn: ['RestApiId', 'StageName'],
  create(properties) {
    return { physicalId: String(properties.StageName) };
  },
};

export const restApiAuthorizerProvider = idProvider('AuthorizerId', 6, ['RestApiId']);

/** A key keeps its `Value`, or one generated like API Gateway's (40 characters), for the gateway to check `x-api-key` against. */
export const restApiKeyProvider: ResourceProvider = {
  replaceOn: ['Value', 'GenerateDistinctId'],
  create(properties) {
    const id = shortId(10);
    const value = typeof properties.Value === 'string' ? properties.Value : randomBytes(30).toString('base64url').slice(0, 40);
    return { physicalId: id, attributes: { APIKeyId: id, Value: value } };
  },
};

export const restUsagePlanProvider = idProvider('Id', 6, []);

export const restUsagePlanKeyProvider: ResourceProvider = {
  replaceOn: ['KeyId', 'KeyType', 'UsagePlanId'],
  create(properties) {
    return { physicalId: `${String(properties.UsagePlanId)}:${String(properties.KeyId)}`, attributes: { Id: String(properties.KeyId) } };
  },
};
