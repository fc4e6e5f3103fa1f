/**
 * Events the local cloud does not send, as AWS documents their samples: Alexa skill and smart-home
 * requests, an IoT rule's message, a Cognito user pool trigger.
 */
import { randomUUID } from 'node:crypto';

const REGION = 'us-east-1';

/** An Alexa custom skill's LaunchRequest ("Request and Response JSON Reference"). */
export function alexaSkillEvent(): Record<string, unknown> {
  const application = { applicationId: `amzn1.ask.skill.${randomUUID()}` };
  const user = { userId: 'amzn1.ask.account.EXAMPLE' };
  return {
    version: '1.0',
    session: { new: true, sessionId: `amzn1.echo-api.session.${randomUUID()}`, application, attributes: {}, user },
    context: {
      System: {
        application,
        user,
        device: { deviceId: 'amzn1.ask.device.EXAMPLE', supportedInterfaces: {} },
        apiEndpoint: 'https://api.amazonalexa.com',
        apiAccessToken: 'EXAMPLE',
      },
    },
    request: { type: 'LaunchRequest', requestId: `amzn1.echo-api.request.${randomUUID()}`, timestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), locale: 'en-US' },
  };
}

/** An Alexa smart-home directive, payload version 3 (Alexa.PowerController TurnOn). */
export function alexaSmartHomeEvent(): Record<string, unknown> {
  return {
    directive: {
      header: { namespace: 'Alexa.PowerController', name: 'TurnOn', payloadVersion: '3', messageId: randomUUID(), correlationToken: 'EXAMPLE' },
      endpoint: { scope: { type: 'BearerToken', token: 'EXAMPLE' }, endpointId: 'endpoint-001', cookie: {} },
      payload: {},
    },
  };
}

/** What an IoT rule (`SELECT * FROM 'topic'`) passes to Lambda: the MQTT message itself (the AWS IoT rules tutorial's). */
export function iotEvent(): Record<string, unknown> {
  return { temperature: 28, humidity: 80, barometer: 1013, wind: { velocity: 22, bearing: 255 } };
}

/** A Cognito user pool pre sign-up trigger ("Customizing user pool workflows with Lambda triggers"). */
export function cognitoUserPoolEvent(): Record<string, unknown> {
  return {
    version: '1',
    triggerSource: 'PreSignUp_SignUp',
    region: REGION,
    userPoolId: `${REGION}_EXAMPLE`,
    userName: 'example-user',
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'example-client-id' },
    request: { userAttributes: { email: 'user@example.com' }, validationData: null },
    response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
  };
}

