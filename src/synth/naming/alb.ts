/** Logical ids and generated names of the `alb` event's target groups, listener rules and permissions. */
import { md5, normalizeName } from './normalize';

/** One target group per function, load balancer and header mode: `HelloAlbMultiValueTargetGroup50dc6c495c0c9188`. */
export const albTargetGroup = (fn: string, loadBalancerId: string, multiValueHeaders: boolean) =>
  `${normalizeName(fn)}Alb${multiValueHeaders ? 'MultiValue' : ''}TargetGroup${loadBalancerId}`;
export const albListenerRule = (fn: string, priority: number) => `${normalizeName(fn)}AlbListenerRule${priority}`;
export const albPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionAlb`;
export const albRegisterTargetPermission = (fn: string) => `${normalizeName(fn)}LambdaPermissionRegisterTarget`;

/** The `Name` tag of a target group: `app-hello-50dc6c495c0c9188-dev`. */
export const albTargetGroupTag = (service: string, fn: string, loadBalancerId: string, stage: string) =>
  `${service}-${fn}-${loadBalancerId}-${stage}`;

/**
 * The target group's physical name: an md5 of service, function, load balancer,
 * header mode and stage (32 hex characters, the most AWS allows), after the prefix if any.
 */
export function albTargetGroupName(
  service: string,
  fn: string,
  loadBalancerId: string,
  multiValueHeaders: boolean,
  stage: string,
  prefix = '',
): string {
  const hash = md5(`${service}-${fn}-${loadBalancerId}-${multiValueHeaders ? 'multi-value-' : ''}${stage}`);
  return `${prefix}${hash}`.slice(0, 32);
}
