/**
 * How long CloudFormation typically takes to create, update or delete a resource of each type on
 * AWS, in seconds. Estimates (what deploys commonly show in stack events; real times vary with the
 * region, the load and the properties), used only by `--provisioning-delay` to make the local cloud
 * take time the way AWS does, scaled down. A type not listed takes DEFAULT_PROVISIONING_SECONDS.
 */
export const PROVISIONING_SECONDS: Readonly<Record<string, number>> = {
  'AWS::IAM::Role': 10,
  'AWS::IAM::Policy': 10,
  'AWS::IAM::ManagedPolicy': 10,
  'AWS::Lambda::Function': 5,
  'AWS::Lambda::Version': 2,
  'AWS::Lambda::Alias': 2,
  'AWS::Lambda::Permission': 1,
  'AWS::Lambda::Url': 1,
  'AWS::Lambda::EventSourceMapping': 5,
  'AWS::Lambda::LayerVersion': 5,
  'AWS::Logs::LogGroup': 1,
  'AWS::Logs::SubscriptionFilter': 1,
  'AWS::S3::Bucket': 2,
  'AWS::S3::BucketPolicy': 1,
  'AWS::SQS::Queue': 1,
  'AWS::SQS::QueuePolicy': 1,
  'AWS::SNS::Topic': 1,
  'AWS::SNS::Subscription': 1,
  'AWS::SNS::TopicPolicy': 1,
  'AWS::DynamoDB::Table': 10,
  'AWS::DynamoDB::GlobalTable': 60,
  'AWS::Events::Rule': 2,
  'AWS::ApiGateway::RestApi': 2,
  'AWS::ApiGateway::Resource': 1,
  'AWS::ApiGateway::Method': 1,
  'AWS::ApiGateway::Deployment': 2,
  'AWS::ApiGateway::Stage': 2,
  'AWS::ApiGatewayV2::Api': 2,
  'AWS::ApiGatewayV2::Stage': 2,
  'AWS::ApiGatewayV2::Integration': 1,
  'AWS::ApiGatewayV2::Route': 1,
  'AWS::ApiGatewayV2::Authorizer': 1,
  'AWS::CloudFront::Distribution': 300,
  'AWS::Cognito::UserPool': 2,
  'AWS::Kinesis::Stream': 30,
  'AWS::StepFunctions::StateMachine': 2,
  // A nested stack's time is its own resources' (they take theirs in the child stack).
  'AWS::CloudFormation::Stack': 0,
};

export const DEFAULT_PROVISIONING_SECONDS = 5;

/** The typical seconds a resource of this type takes to provision on AWS. */
export function provisioningSeconds(type: string): number {
  return PROVISIONING_SECONDS[type] ?? DEFAULT_PROVISIONING_SECONDS;
}
