/** The prefix of Cognito user pools' JSON targets (`AWSCognitoIdentityProviderService.InitiateAuth`). */
export const COGNITO_TARGET_PREFIX = 'AWSCognitoIdentityProviderService';

/**
 * The operations clients call without AWS credentials, as Cognito serves them (the SDKs send them
 * unsigned): sign-up and sign-in, and those the user's own access token authorizes.
 */
const UNSIGNED_OPERATIONS: ReadonlySet<string> = new Set([
  'AssociateSoftwareToken', 'ChangePassword', 'CompleteWebAuthnRegistration', 'ConfirmDevice', 'ConfirmForgotPassword', 'ConfirmSignUp',
  'DeleteUser', 'DeleteUserAttributes', 'DeleteWebAuthnCredential', 'ForgetDevice', 'ForgotPassword', 'GetDevice', 'GetTokensFromRefreshToken',
  'GetUser', 'GetUserAttributeVerificationCode', 'GetUserAuthFactors', 'GlobalSignOut', 'InitiateAuth', 'ListDevices', 'ListUserSessions',
  'ListWebAuthnCredentials', 'ResendConfirmationCode', 'RespondToAuthChallenge', 'RevokeToken', 'RevokeUserSession', 'SetUserMFAPreference',
  'SetUserSettings', 'SignUp', 'StartWebAuthnRegistration', 'UpdateAuthEventFeedback', 'UpdateDeviceStatus', 'UpdateUserAttributes',
  'VerifySoftwareToken', 'VerifyUserAttribute',
]);

/** Whether an `X-Amz-Target` names a Cognito operation Cognito serves unsigned. */
export function isUnsignedCognitoTarget(target: string | undefined): boolean {
  if (target === undefined) return false;
  const [prefix, operation = ''] = target.split('.');
  return prefix === COGNITO_TARGET_PREFIX && UNSIGNED_OPERATIONS.has(operation);
}

/** `/<pool id>/.well-known/jwks.json` and `/<pool id>/.well-known/openid-configuration`: a local pool's issuer documents. */
export const POOL_WELL_KNOWN_PATH = /^\/([a-z]{2}(?:-[a-z]+)+-\d_[0-9A-Za-z]+)\/\.well-known\/(jwks\.json|openid-configuration)$/;
