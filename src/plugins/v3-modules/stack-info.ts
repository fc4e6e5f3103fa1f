/**
 * What Serverless v3's `…/aws/info/get-stack-info` gives a plugin that mixes it in
 * (serverless-apigateway-service-proxy prints its endpoints after a deploy): `getStackInfo()`
 * fills `this.gatheredData` from the deployed stack's outputs, as v3's `info` reads them.
 */

interface Output {
  OutputKey: string;
  OutputValue: string;
  Description?: string;
}

interface InfoPlugin {
  serverless: { service: { service: string } };
  provider: {
    getStage(): string;
    getRegion(): string;
    naming: { getStackName(): string; getServiceEndpointRegex(): RegExp };
    request(service: string, method: string, params: Record<string, unknown>): Promise<unknown>;
  };
  gatheredData?: unknown;
}

export const stackInfo = {
  async getStackInfo(this: InfoPlugin): Promise<void> {
    const stackName = this.provider.naming.getStackName();
    const info = {
      functions: [] as unknown[],
      layers: [] as unknown[],
      endpoints: [] as string[],
      service: this.serverless.service.service,
      stage: this.provider.getStage(),
      region: this.provider.getRegion(),
      stack: stackName,
    };
    const answer = (await this.provider.request('CloudFormation', 'describeStacks', { StackName: stackName })) as { Stacks?: Array<{ Outputs?: Output[] }> };
    const outputs = answer.Stacks?.[0]?.Outputs ?? [];
    const endpoint = this.provider.naming.getServiceEndpointRegex();
    for (const output of outputs) if (endpoint.test(output.OutputKey)) info.endpoints.push(output.OutputValue);
    this.gatheredData = { info, outputs };
  },
};
