import { AwsError } from '../protocol/errors';
import { ECR_URI } from '../../artifacts/image-uri';
import { CODE_SIZE, keptOnUpdate, materializeCode, publishVersion } from '../runtime/code';
import { functionNameOf } from '../runtime/functions';
import { runsLocally } from '../runtime/interpreters';
import { LAYER_SETTINGS, layerNameOf, publishLayerVersion } from '../lambda/layers';
import { arn, generatedName, randomSuffix } from './names';
import type { ProviderContext, Provisioned, ResourceProvider } from './provider';

function deployFunction(name: string, properties: Record<string, unknown>, context: ProviderContext): Provisioned {
  const runtime = String(properties.Runtime ?? 'nodejs20.x');
  if (properties.PackageType === 'Image') {
    // Recorded, as AWS would create it: the image itself is not pulled, and invoking it says so (fw deploy lists it as not run).
    const imageUri = String((properties.Code as { ImageUri?: unknown } | undefined)?.ImageUri ?? '');
    if (!ECR_URI.test(imageUri)) {
      throw new AwsError('InvalidParameterValueException', `Source image ${imageUri} is not valid. Provide a valid source image.`);
    }
    return {
      physicalId: name,
      attributes: { Arn: arn('lambda', context.region, context.accountId, `function:${name}`), CodeSha256: /@sha256:([0-9a-f]{64})$/.exec(imageUri)?.[1] ?? '', 'SnapStartResponse.ApplyOn': 'None' },
    };
  }
  if (!runsLocally(runtime)) context.cloud.log(`function ${name} uses ${runtime}; the local cloud runs Node.js, Python and Runtime API (provided, go1.x) functions`);
  // Warm processes of the old code retire on their own: the runtime compares each function's revision.
  const code = materializeCode(context.cloud.dataDir, context.cloud.s3, properties.Code as Record<string, unknown> | undefined, runtime);
  return {
    physicalId: name,
    attributes: {
      Arn: arn('lambda', context.region, context.accountId, `function:${name}`),
      CodeSha256: code.sha256,
      [CODE_SIZE]: code.size,
      'SnapStartResponse.ApplyOn': 'None',
    },
  };
}

/** A function whose code is unpacked from the uploaded zip and run on invocation. */
export const lambdaFunctionProvider: ResourceProvider = {
  replaceOn: ['FunctionName', 'PackageType'],
  create(properties, context) {
    // CloudFormation checks the resource's schema before Lambda is asked (a derived
    // `service-stage-function` name over 64 characters, which Serverless v3 packages, fails here).
    if (typeof properties.FunctionName === 'string' && properties.FunctionName.length > 64) {
      throw new AwsError('InvalidRequest', `Properties validation failed for resource ${context.logicalId} with message: #/FunctionName: expected maxLength: 64, actual: ${properties.FunctionName.length}`);
    }
    const name = typeof properties.FunctionName === 'string' ? properties.FunctionName : generatedName(context.stackName, context.logicalId, 64);
    const taken = context.cloud.resources('AWS::Lambda::Function').some(({ record }) => record.physicalId === name);
    if (taken) throw new AwsError('AlreadyExists', `Resource of type 'AWS::Lambda::Function' with identifier '${name}' already exists.`);
    return deployFunction(name, properties, context);
  },
  update(properties, previous, context) {
    const deployed = deployFunction(previous.physicalId, properties, context);
    return { ...deployed, attributes: { ...deployed.attributes, ...keptOnUpdate(previous) } };
  },
  async delete(record, context) {
    await context.cloud.functions.stop(record.physicalId);
  },
};

/** A published version: a number per function. It runs the code the function had when it was created. */
export const lambdaVersionProvider: ResourceProvider = {
  replaceOn: ['FunctionName', 'CodeSha256', 'Description', 'ProvisionedConcurrencyConfig'],
  create(properties, context) {
    const name = functionNameOf(String(properties.FunctionName));
    // The version keeps the code the function has now (invoke with a qualifier, rollback function).
    const published = publishVersion(context.cloud, context.cloud.functions.record(name), version => arn('lambda', context.region, context.accountId, `function:${name}:${version}`));
    return { physicalId: published.Arn, attributes: { Version: published.Version, FunctionArn: arn('lambda', context.region, context.accountId, `function:${name}`) } };
  },
};

/** A function URL: it answers under /_fw/lambda-url/<id>/ on the local server. */
export const lambdaUrlProvider: ResourceProvider = {
  replaceOn: ['TargetFunctionArn', 'Qualifier'],
  create(properties, context) {
    const urlId = randomSuffix(32).toLowerCase();
    const target = String(properties.TargetFunctionArn);
    const functionArn = target.startsWith('arn:') ? target : arn('lambda', context.region, context.accountId, `function:${target}`);
    return { physicalId: functionArn, attributes: { FunctionArn: functionArn, FunctionUrl: `https://${urlId}.lambda-url.${context.region}.on.aws/`, UrlId: urlId } };
  },
  update(_properties, previous) {
    return { physicalId: previous.physicalId, attributes: previous.attributes };
  },
};

/** AWS::Lambda::LayerVersion: every property change publishes a new version (lambda/layers.ts); Ref is its ARN. */
export const lambdaLayerVersionProvider: ResourceProvider = {
  replaceOn: ['LayerName', 'Content', ...LAYER_SETTINGS],
  create(properties, context) {
    const name = typeof properties.LayerName === 'string' ? layerNameOf(properties.LayerName) : generatedName(context.stackName, context.logicalId, 140);
    return publishLayerVersion(context.cloud, context.region, name, properties.Content as Record<string, unknown> | undefined);
  },
};
