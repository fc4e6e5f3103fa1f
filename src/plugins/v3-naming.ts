import * as naming from '../synth/naming';

/**
 * `provider.naming` as Serverless v3 plugins call it: every member v3's naming object has,
 * built on fw's naming (`src/synth/naming/`) so a plugin's ids are the ones fw generates.
 * v3's own spellings where its names differ from fw's: `normalizeName` only upper-cases the
 * first letter (fw's `normalizeName` is v3's `getNormalizedFunctionName`).
 */
export interface V3NamingContext {
  service: () => string;
  stage: () => string;
  region: () => string;
  stackName: () => string | undefined;
  /** `provider.alb.targetGroupPrefix`. */
  albTargetGroupPrefix: () => string;
}

const upperFirst = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** `upload-file_x` → `UploadFileX` (words by separators and case changes, each capitalized). */
function toStartCase(name: string): string {
  const words = name.match(/[A-Z]{2,}(?=[A-Z][a-z]|\b|[^A-Za-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g) ?? [];
  return words.map((word) => upperFirst(word)).join('');
}

/** One path segment as v3 spells it: `users/{id}` → `UsersidVar`. */
function normalizePathPart(path: string): string {
  return upperFirst(path.replace(/-/g, 'Dash').replace(/\{(.*?)\+?\}/g, '$1Var').replace(/[^0-9A-Za-z]/g, '').toLowerCase().replace(/var$/, 'Var'));
}

export function v3Naming(context: V3NamingContext) {
  const { service, stage } = context;
  const fnName = naming.functionName;
  const stackName = () => context.stackName() ?? naming.stackName(service(), stage());
  return {
    normalizeName: upperFirst,
    normalizeNameToAlphaNumericOnly: (name: string) => upperFirst(name.replace(/[^0-9A-Za-z]/g, '')),
    toStartCase,
    normalizePathPart,
    getServiceEndpointRegex: () => /^(ServiceEndpoint|HttpApiUrl)/,
    getStackName: stackName,
    getStackChangeSetName: () => `${stackName()}-change-set`,
    getServiceArtifactName: () => `${service()}.zip`,
    getFunctionArtifactName: (fn: string) => `${fn}.zip`,
    getLayerArtifactName: (layer: string) => `${layer}.zip`,
    getServiceStateFileName: () => 'serverless-state.json',
    getCompiledTemplateFileName: () => 'cloudformation-template-update-stack.json',
    getCompiledTemplateS3Suffix: () => 'compiled-cloudformation-template.json',
    getCoreTemplateFileName: () => 'cloudformation-template-create-stack.json',
    getRolePath: () => '/',
    getRoleName: () => ({ 'Fn::Join': ['-', [service(), stage(), { Ref: 'AWS::Region' }, 'lambdaRole']] }),
    getRoleLogicalId: naming.roleLambdaExecution,
    getPolicyName: () => ({ 'Fn::Join': ['-', [service(), stage(), 'lambda']] }),
    getLogGroupLogicalId: naming.logGroup,
    getLogGroupName: naming.logGroupName,
    getNormalizedFunctionName: fnName,
    extractLambdaNameFromArn: (arn: string) => arn.split(':').slice(-1)[0],
    extractAuthorizerNameFromArn: (arn: string) => {
      const name = arn.split(':').slice(-1)[0];
      return /-([^-]*)$/.exec(name)?.[1] ?? name;
    },
    getLambdaLogicalId: naming.lambdaFunction,
    getLambdaFunctionUrlLogicalId: naming.lambdaUrl,
    getLambdaEventConfigLogicalId: naming.lambdaEventConfig,
    getLambdaLayerLogicalId: (layer: string) => `${fnName(layer)}LambdaLayer`,
    getLambdaLayerPermissionLogicalId: (layer: string, account: string) => `${fnName(layer)}${account.replace('*', 'Wild')}LambdaLayerPermission`,
    getLambdaLogicalIdRegex: () => /LambdaFunction$/,
    getLambdaVersionLogicalId: naming.lambdaVersion,
    getCodeDeployApplicationLogicalId: () => 'CodeDeployApplication',
    getCodeDeployDeploymentGroupLogicalId: () => 'CodeDeployDeploymentGroup',
    getCodeDeployRoleLogicalId: () => 'CodeDeployRole',
    getLambdaProvisionedConcurrencyAliasLogicalId: (fn: string) => `${fnName(fn)}ProvConcLambdaAlias`,
    getLambdaSnapStartAliasLogicalId: (fn: string) => `${fnName(fn)}SnapStartLambdaAlias`,
    getLambdaProvisionedConcurrencyAliasName: () => 'provisioned',
    getLambdaSnapStartEnabledAliasName: () => 'snapstart',
    getLambdaFunctionUrlOutputLogicalId: naming.lambdaUrl,
    getLambdaVersionOutputLogicalId: naming.lambdaQualifiedArnOutput,
    getLambdaLayerOutputLogicalId: (layer: string) => `${fnName(layer)}LambdaLayerQualifiedArn`,
    getLambdaLayerHashOutputLogicalId: (layer: string) => `${fnName(layer)}LambdaLayerHash`,
    getLambdaLayerS3KeyOutputLogicalId: (layer: string) => `${fnName(layer)}LambdaLayerS3Key`,
    getWebsocketsApiName: () => `${stage()}-${service()}-websockets`,
    getWebsocketsApiLogicalId: naming.websocketsApi,
    getWebsocketsIntegrationLogicalId: naming.websocketsIntegration,
    getLambdaWebsocketsPermissionLogicalId: naming.websocketsPermission,
    getNormalizedWebsocketsRouteKey: naming.normalizeWebsocketRoute,
    getWebsocketsRouteLogicalId: naming.websocketsRoute,
    getWebsocketsDeploymentLogicalId: naming.websocketsDeployment,
    getWebsocketsRouteResponseLogicalId: naming.websocketsRouteResponse,
    getWebsocketsStageLogicalId: naming.websocketsStage,
    getWebsocketsAuthorizerLogicalId: naming.websocketsAuthorizer,
    getWebsocketsLogGroupLogicalId: naming.websocketsLogGroup,
    getApiGatewayName: () => `${stage()}-${service()}`,
    generateApiGatewayDeploymentLogicalId: naming.restApiDeployment,
    getRestApiLogicalId: naming.restApi,
    getNormalizedAuthorizerName: fnName,
    getAuthorizerLogicalId: naming.restApiAuthorizer,
    normalizePath: naming.pathToLogicalPart,
    getResourceLogicalId: naming.restApiResource,
    extractResourceId: (logicalId: string) => logicalId.match(/ApiGatewayResource(.*)/)?.[1],
    normalizeMethodName: (method: string) => upperFirst(method.toLowerCase()),
    getMethodLogicalId: (resourceId: string, method: string) => `ApiGatewayMethod${resourceId}${upperFirst(method.toLowerCase())}`,
    getValidatorLogicalId: () => `ApiGateway${naming.normalizeNameToAlphaNumericOnly(service())}RequestValidator`,
    getModelLogicalId: (schemaId: string) => `ApiGateway${naming.normalizeNameToAlphaNumericOnly(toStartCase(schemaId))}Model`,
    getEndpointModelLogicalId: (resourceId: string, method: string, contentType: string) =>
      `ApiGatewayMethod${resourceId}${upperFirst(method.toLowerCase())}${naming.normalizeNameToAlphaNumericOnly(toStartCase(contentType))}Model`,
    getApiKeyLogicalId: (index: number, name?: string) => naming.restApiKey(index, name),
    getApiKeyLogicalIdRegex: () => /^ApiGatewayApiKey/,
    getUsagePlanLogicalId: (name?: string) => `ApiGatewayUsagePlan${name ? upperFirst(name) : ''}`,
    getUsagePlanKeyLogicalId: (index: number, name?: string) => naming.restUsagePlanKey(index, name),
    getStageLogicalId: () => 'ApiGatewayStage',
    getApiGatewayLogGroupLogicalId: naming.restApiLogGroup,
    getDeploymentBucketLogicalId: naming.deploymentBucket,
    getDeploymentBucketOutputLogicalId: naming.deploymentBucketOutput,
    getDeploymentBucketPolicyLogicalId: naming.deploymentBucketPolicy,
    normalizeBucketName: naming.normalizeNameToAlphaNumericOnly,
    getBucketLogicalId: naming.s3Bucket,
    normalizeTopicName: naming.normalizeNameToAlphaNumericOnly,
    getTopicLogicalId: naming.snsTopic,
    getTopicDLQPolicyLogicalId: naming.snsDlqPolicy,
    getScheduleId: naming.scheduleTargetId,
    getScheduleLogicalId: naming.scheduleRule,
    getSchedulerScheduleLogicalId: naming.schedulerSchedule,
    getStreamLogicalId: naming.streamEventSourceMapping,
    getStreamConsumerName: (fn: string, stream: string) => naming.streamConsumerName(fn, stream),
    getStreamConsumerLogicalId: naming.streamConsumer,
    getIotLogicalId: naming.iotTopicRule,
    getLambdaIotPermissionLogicalId: naming.iotTopicRulePermission,
    getIotFleetProvisioningLogicalId: naming.iotProvisioningTemplate,
    getLambdaIotFleetProvisioningPermissionLogicalId: naming.iotProvisioningTemplatePermission,
    getCloudWatchEventId: naming.cloudWatchEventTargetId,
    getCloudWatchEventLogicalId: naming.cloudWatchEventRule,
    getCloudWatchLogLogicalId: naming.cloudWatchLogSubscriptionFilter,
    getCognitoUserPoolLogicalId: naming.cognitoUserPool,
    getQueueLogicalId: naming.sqsEventSourceMapping,
    getMSKEventLogicalId: naming.mskEventSourceMapping,
    getKafkaEventLogicalId: naming.kafkaEventSourceMapping,
    getActiveMQEventLogicalId: naming.activeMqEventSourceMapping,
    getRabbitMQEventLogicalId: naming.rabbitMqEventSourceMapping,
    getAlbTargetGroupLogicalId: naming.albTargetGroup,
    getAlbTargetGroupNameTagValue: (fn: string, albId: string, multiValueHeaders: boolean) =>
      naming.albTargetGroupTag(service(), fn, `${albId}${multiValueHeaders ? '-multi-value' : ''}`, stage()),
    generateAlbTargetGroupName: (fn: string, albId: string, multiValueHeaders: boolean) =>
      naming.albTargetGroupName(service(), fn, albId, multiValueHeaders, stage(), context.albTargetGroupPrefix()),
    getAlbListenerRuleLogicalId: naming.albListenerRule,
    getLambdaS3PermissionLogicalId: naming.s3Permission,
    getLambdaSnsPermissionLogicalId: naming.snsPermission,
    getLambdaSnsSubscriptionLogicalId: naming.snsSubscription,
    getLambdaSchedulePermissionLogicalId: naming.schedulePermission,
    getLambdaCloudWatchEventPermissionLogicalId: naming.cloudWatchEventPermission,
    getLambdaApiGatewayPermissionLogicalId: naming.restApiPermission,
    getLambdaHttpApiPermissionLogicalId: naming.httpApiPermission,
    getLambdaFnUrlPermissionLogicalId: naming.lambdaUrlPermission,
    getLambdaAuthorizerHttpApiPermissionLogicalId: (name: string) => `${fnName(name)}LambdaAuthorizerPermissionHttpApi`,
    getLambdaAlexaSkillPermissionLogicalId: naming.alexaSkillPermission,
    getLambdaAlexaSmartHomePermissionLogicalId: naming.alexaSmartHomePermission,
    getLambdaCloudWatchLogPermissionLogicalId: naming.cloudWatchLogPermission,
    getLambdaCognitoUserPoolPermissionLogicalId: naming.cognitoUserPoolPermission,
    getLambdaAlbPermissionLogicalId: naming.albPermission,
    getLambdaRegisterTargetPermissionLogicalId: naming.albRegisterTargetPermission,
    getCustomResourcesArtifactName: naming.customResourcesArtifact,
    getCustomResourcesRoleLogicalId: naming.customResourcesRole,
    getCustomResourceS3HandlerFunctionName: () => 'custom-resource-existing-s3',
    getCustomResourceS3HandlerFunctionLogicalId: () => naming.customResourceFunction('existing-s3'),
    getCustomResourceS3ResourceLogicalId: (fn: string) => naming.s3CustomResource(fn, 1),
    getCustomResourceCognitoUserPoolHandlerFunctionName: () => 'custom-resource-existing-cup',
    getCustomResourceCognitoUserPoolHandlerFunctionLogicalId: () => naming.customResourceFunction('existing-cup'),
    getCustomResourceCognitoUserPoolResourceLogicalId: naming.existingCognitoUserPool,
    getCustomResourceEventBridgeHandlerFunctionName: () => 'custom-resource-event-bridge',
    getCustomResourceEventBridgeHandlerFunctionLogicalId: () => naming.customResourceFunction('event-bridge'),
    getCustomResourceEventBridgeResourceLogicalId: naming.eventBridgeCustomResource,
    getNormalizedResourceName: fnName,
    getEventBridgeEventBusLogicalId: naming.eventBridgeEventBus,
    getEventBridgeRuleLogicalId: (rule: string) => `${naming.normalizeNameToAlphaNumericOnly(rule)}EventBridgeRule`,
    getEventBridgeLambdaPermissionLogicalId: naming.eventBridgePermission,
    getCustomResourceApiGatewayAccountCloudWatchRoleHandlerFunctionName: () => 'custom-resource-apigw-cw-role',
    getCustomResourceApiGatewayAccountCloudWatchRoleHandlerFunctionLogicalId: () => naming.customResourceFunction('apigw-cw-role'),
    getCustomResourceApiGatewayAccountCloudWatchRoleResourceLogicalId: () => 'CustomApiGatewayAccountCloudWatchRole',
    getCloudFrontDistributionLogicalId: naming.cloudFrontDistribution,
    getCloudFrontDistributionDomainNameLogicalId: naming.cloudFrontDistributionDomainNameOutput,
    getLambdaAtEdgeInvokePermissionLogicalId: naming.lambdaAtEdgePermission,
    getCloudFrontOriginId: (origin: { DomainName: string; OriginPath?: string; S3OriginConfig?: unknown }) =>
      origin.S3OriginConfig ? `s3/${origin.DomainName.split('.')[0]}${origin.OriginPath ?? ''}` : `custom/${origin.DomainName}${origin.OriginPath ?? ''}`,
    getCloudFrontCachePolicyLogicalId: naming.cloudFrontCachePolicy,
    getCloudFrontCachePolicyName: (name: string) => naming.cloudFrontCachePolicyName(service(), stage(), name),
    getHttpApiName: () => `${stage()}-${service()}`,
    getHttpApiLogicalId: naming.httpApi,
    getHttpApiStageLogicalId: naming.httpApiStage,
    getHttpApiIntegrationLogicalId: naming.httpApiIntegration,
    getHttpApiRouteLogicalId: naming.httpApiRoute,
    getHttpApiAuthorizerLogicalId: (name: string) => `HttpApiAuthorizer${fnName(name)}`,
    getHttpApiLogGroupLogicalId: naming.httpApiLogGroup,
    getHttpApiLogGroupName: () => `/aws/http-api/${stackName()}`,
    getEcrRepositoryName: () => `serverless-${service()}-${stage()}`,
    // fw's own, kept for plugins written against earlier fw versions.
    getStackOutputName: (key: string) => naming.exportName(service(), stage(), key),
  };
}
