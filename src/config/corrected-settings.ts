/**
 * Settings of Serverless Framework v3 whose template fw writes differently on purpose, because
 * v3's template is one AWS rejects. Each has the reason (docs/reference/compatibility.md lists it)
 * and the correction: what it changes in the reference's template for the settings sweep's sample.
 * The sweep test checks that fw's template is the reference's with exactly that correction, and
 * that the correction changes something.
 */
export const CORRECTED_SETTINGS: Record<string, { reason: string; correct: (template: { Resources: Record<string, any> }) => void }> = {
  'functions.hello.disableLogs': {
    reason: 'when no function on the shared role writes logs, v3 keeps the two log statements with empty `Resource` lists, which IAM rejects; fw leaves them out (and the inline policy, when nothing else is in it)',
    correct: (template) => {
      const properties = template.Resources.IamRoleLambdaExecution.Properties;
      const policy = properties.Policies[0].PolicyDocument;
      policy.Statement = policy.Statement.filter((statement: { Resource?: unknown }) => !(Array.isArray(statement.Resource) && statement.Resource.length === 0));
      if (policy.Statement.length === 0) delete properties.Policies;
    },
  },
};

/**
 * Golden cases (`test/fixtures/{golden,events}/<case>`) whose reference template AWS rejects, with
 * the same shape: the golden test checks fw's template is the reference's with exactly that correction.
 */
export const CORRECTED_GOLDENS: Record<string, { reason: string; correct: (template: { Resources: Record<string, any> }) => void }> = {
  'stream-kinesis': {
    reason:
      'with `startingPosition: AT_TIMESTAMP` and no fan-out consumer, v3 drops `startingPositionTimestamp`, and Lambda rejects an AT_TIMESTAMP mapping without one; fw writes it, as it does for a consumer',
    correct: (template) => {
      template.Resources.TimestampedEventSourceMappingKinesisBar.Properties.StartingPositionTimestamp = 1000000001;
    },
  },
  's3-notification-configuration-lambdas': {
    reason:
      "with an `s3` event on a bucket whose `provider.s3` settings list `notificationConfiguration.LambdaConfigurations`, v3 writes the given ones only: the event's function is never notified; fw adds the event's after them",
    correct: (template) => {
      template.Resources.S3BucketPhotos.Properties.NotificationConfiguration.LambdaConfigurations.push({
        Event: 's3:ObjectCreated:*',
        Filter: { S3Key: { Rules: [{ Name: 'prefix', Value: 'uploads/' }] } },
        Function: { 'Fn::GetAtt': ['HelloLambdaFunction', 'Arn'] },
      });
    },
  },
  'http-status-codes-without-default': {
    reason:
      "with `response.statusCodes` holding a `200` without `pattern` and no code with `pattern: ''`, v3 replaces that `200` with its default one and loses its template and headers; fw makes it the default and keeps them",
    correct: (template) => {
      template.Resources.ApiGatewayMethodCGet.Properties.Integration.IntegrationResponses[0].ResponseTemplates = { 'application/json': 'T200' };
    },
  },
};
