import { atEndpoint, connectFor, cwdOf, optionsOf, reporterOf, type CloudRequest } from './request';

/** The service whose stack was deleted. */
export interface RemoveResult {
  service: string;
  stage: string;
  region: string;
  stackName: string;
}

/**
 * `fw remove` as a function: empties the service's objects in the deployment bucket and deletes
 * its stack. Throws CloudError when the stack does not exist, StackError when the deletion fails.
 */
export async function remove(request: CloudRequest = {}): Promise<RemoveResult> {
  const { removeService } = require('../deploy/remove') as typeof import('../deploy/remove');
  const { describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
  // Plugin hooks (issue 9): `initialize`, then `remove:remove` around the removal.
  const { loadPlugins, loadServiceWithPlugins, initialize } = require('../plugins') as typeof import('../plugins');
  return atEndpoint(request, async resolved => {
    const cwd = cwdOf(request);
    const plugins = await loadPlugins({ cwd, options: optionsOf(request) });
    const loaded = await loadServiceWithPlugins(plugins, cwd, optionsOf(request));
    const connection = await connectFor(loaded, resolved);
    plugins.awsTarget = async () => connection.clients.target;
    plugins.write = request.write ?? (() => undefined);
    try {
      await initialize(plugins, loaded);
      await plugins.run('remove:remove', () =>
        removeService(loaded, connection.clients, reporterOf(request)).catch(error => {
          throw describeAwsError(error, `removing ${loaded.stackName}`, connection.clients.target);
        }),
      );
      return { service: loaded.serviceName, stage: loaded.stage, region: loaded.region, stackName: loaded.stackName };
    } finally {
      await connection.close();
    }
  });
}
