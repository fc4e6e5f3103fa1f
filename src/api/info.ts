import { CloudError } from '../errors';
import { atEndpoint, connectFor, cwdOf, optionsOf, type CloudRequest } from './request';
import { serviceInfo, type ServiceInfo } from './service-info';

/**
 * `fw info` as a function: the deployed stack's status, endpoints, functions and outputs.
 * Throws CloudError when the service is not deployed for the stage.
 */
export async function info(request: CloudRequest = {}): Promise<ServiceInfo> {
  const { loadServiceConfig } = require('../service/load') as typeof import('../service/load');
  const { describeStack } = require('../deploy/stack') as typeof import('../deploy/stack');
  const { describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
  const { deployedResources } = require('../deploy/deployed') as typeof import('../deploy/deployed');
  return atEndpoint(request, async resolved => {
    const loaded = await loadServiceConfig(cwdOf(request), optionsOf(request));
    const connection = await connectFor(loaded, resolved);
    try {
      const stack = await describeStack(connection.clients, loaded.stackName).catch(error => {
        throw describeAwsError(error, `describing ${loaded.stackName}`, connection.clients.target);
      });
      if (!stack) throw new CloudError(`Stack ${loaded.stackName} does not exist in ${loaded.region}: the service is not deployed for stage ${loaded.stage}`);
      // What the stack holds, not what the service file says: a failed deploy leaves the previous template.
      const deployed = await deployedResources(connection.clients, loaded.stackName).catch(error => {
        throw describeAwsError(error, `describing ${loaded.stackName}`, connection.clients.target);
      });
      const hasApiKeys = [...deployed.values()].some(resource => resource.Type === 'AWS::ApiGateway::ApiKey');
      const { stackApiKeys } = require('../deploy/api-keys') as typeof import('../deploy/api-keys');
      const apiKeys = hasApiKeys
        ? await stackApiKeys(connection.clients, loaded.stackName).catch(error => {
            throw describeAwsError(error, `reading the API keys of ${loaded.stackName}`, connection.clients.target);
          })
        : [];
      return serviceInfo(loaded, stack, deployed, apiKeys);
    } finally {
      await connection.close();
    }
  });
}
