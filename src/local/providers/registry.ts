import { customResourceProvider, isCustomResourceType } from './custom-resource';
import type { ResourceProvider } from './provider';
import { recordedProvider } from './recorded';
import { s3BucketProvider } from './s3-bucket';
import { secretProvider } from './secret';
import { kmsAliasProvider, kmsKeyProvider } from './kms';
import { sesConfigurationSetProvider, sesEmailIdentityProvider, sesTemplateProvider } from './ses';
import { activityProvider, stateMachineProvider } from './state-machine';
import * as cognito from './cognito';
import * as gateway from './api-gateway';
import * as lambda from './lambda';
import * as simple from './simple';
import { kinesisStreamProvider } from './kinesis-stream';
import { nestedStackProvider } from './nested-stack';
import * as loadBalancing from './load-balancing';
import { lambdaAliasProvider } from './lambda-alias';
import { waitConditionHandleProvider, waitConditionProvider } from './wait-condition';

/** Types with local behaviour; every other type is recorded only. */
const PROVIDERS: Record<string, ResourceProvider> = {
  'AWS::S3::Bucket': s3BucketProvider,
  'AWS::IAM::Role': simple.iamRoleProvider,
  'AWS::IAM::ManagedPolicy': simple.iamPolicyProvider,
  'AWS::IAM::Policy': simple.iamPolicyProvider,
  'AWS::Logs::LogGroup': simple.logGroupProvider,
  'AWS::Logs::SubscriptionFilter': simple.logSubscriptionFilterProvider,
  'AWS::SQS::Queue': simple.sqsQueueProvider,
  'AWS::DynamoDB::Table': simple.dynamoDbTableProvider,
  'AWS::Kinesis::Stream': kinesisStreamProvider,
  'AWS::SNS::Topic': simple.snsTopicProvider,
  'AWS::SNS::Subscription': simple.snsSubscriptionProvider,
  'AWS::Events::Rule': simple.eventsRuleProvider,
  'AWS::Scheduler::Schedule': simple.schedulerScheduleProvider,
  'AWS::Scheduler::ScheduleGroup': simple.schedulerScheduleGroupProvider,
  'AWS::Events::EventBus': simple.eventBusProvider,
  'AWS::SSM::Parameter': simple.ssmParameterProvider,
  'AWS::SecretsManager::Secret': secretProvider,
  'AWS::KMS::Key': kmsKeyProvider,
  'AWS::KMS::Alias': kmsAliasProvider,
  'AWS::SES::EmailIdentity': sesEmailIdentityProvider,
  'AWS::SES::Template': sesTemplateProvider,
  'AWS::SES::ConfigurationSet': sesConfigurationSetProvider,
  'AWS::StepFunctions::StateMachine': stateMachineProvider,
  'AWS::StepFunctions::Activity': activityProvider,
  'AWS::Cognito::UserPool': cognito.userPoolProvider,
  'AWS::Cognito::UserPoolClient': cognito.userPoolClientProvider,
  'AWS::Cognito::UserPoolGroup': cognito.userPoolGroupProvider,
  'AWS::Cognito::UserPoolDomain': cognito.userPoolDomainProvider,
  'AWS::Lambda::Permission': simple.lambdaPermissionProvider,
  'AWS::Lambda::EventInvokeConfig': simple.lambdaEventInvokeConfigProvider,
  'AWS::Lambda::Function': lambda.lambdaFunctionProvider,
  'AWS::Lambda::Version': lambda.lambdaVersionProvider,
  'AWS::Lambda::Url': lambda.lambdaUrlProvider,
  'AWS::Lambda::LayerVersion': lambda.lambdaLayerVersionProvider,
  'AWS::Lambda::Alias': lambdaAliasProvider,
  'AWS::ApiGatewayV2::Api': gateway.httpApiProvider,
  'AWS::ApiGatewayV2::Stage': gateway.httpApiStageProvider,
  'AWS::ApiGatewayV2::Integration': gateway.httpApiIntegrationProvider,
  'AWS::ApiGatewayV2::Route': gateway.httpApiRouteProvider,
  'AWS::ApiGatewayV2::Authorizer': gateway.httpApiAuthorizerProvider,
  'AWS::ApiGatewayV2::Deployment': gateway.httpApiDeploymentProvider,
  'AWS::ApiGatewayV2::RouteResponse': gateway.httpApiRouteResponseProvider,
  'AWS::ApiGateway::RestApi': gateway.restApiProvider,
  'AWS::ApiGateway::Resource': gateway.restApiResourceProvider,
  'AWS::ApiGateway::Method': gateway.restApiMethodProvider,
  'AWS::ApiGateway::Deployment': gateway.restApiDeploymentProvider,
  'AWS::ApiGateway::Stage': gateway.restApiStageProvider,
  'AWS::ApiGateway::Authorizer': gateway.restApiAuthorizerProvider,
  'AWS::ApiGateway::ApiKey': gateway.restApiKeyProvider,
  'AWS::ApiGateway::UsagePlan': gateway.restUsagePlanProvider,
  'AWS::ApiGateway::UsagePlanKey': gateway.restUsagePlanKeyProvider,
  'AWS::ElasticLoadBalancingV2::LoadBalancer': loadBalancing.loadBalancerProvider,
  'AWS::ElasticLoadBalancingV2::Listener': loadBalancing.listenerProvider,
  'AWS::ElasticLoadBalancingV2::ListenerRule': loadBalancing.listenerRuleProvider,
  'AWS::ElasticLoadBalancingV2::TargetGroup': loadBalancing.targetGroupProvider,
  'AWS::CloudFormation::Stack': nestedStackProvider,
  'AWS::CloudFormation::WaitConditionHandle': waitConditionHandleProvider,
  'AWS::CloudFormation::WaitCondition': waitConditionProvider,
};

export function providerFor(type: string): ResourceProvider {
  return PROVIDERS[type] ?? (isCustomResourceType(type) ? customResourceProvider : recordedProvider);
}

/** The resource types the local cloud acts on (the rest are recorded), for docs/reference/local-cloud-coverage.md. */
export function emulatedTypes(): string[] {
  return Object.keys(PROVIDERS);
}

export function isEmulated(type: string): boolean {
  return Object.hasOwn(PROVIDERS, type) || isCustomResourceType(type);
}
