import { dependsOnList, referencesIn } from './references';

type Resources = Record<string, Record<string, unknown>>;

/** Types that are shared by nature (an API, the role, the REST deployment): they stay in the root stack. */
const SHARED_TYPES = new Set([
  'AWS::IAM::Role',
  'AWS::IAM::ManagedPolicy',
  'AWS::ApiGateway::RestApi',
  'AWS::ApiGateway::Deployment',
  'AWS::ApiGateway::Stage',
  'AWS::ApiGateway::Authorizer',
  'AWS::ApiGateway::GatewayResponse',
  'AWS::ApiGateway::Account',
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::Stage',
  'AWS::ApiGatewayV2::Authorizer',
  'AWS::Lambda::LayerVersion',
]);

/** Types that belong to the one function whose resources use them (its log group, its REST path). */
const FOLLOW_USERS = new Set(['AWS::Logs::LogGroup', 'AWS::ApiGateway::Resource']);

/** Each resource's references to other resources of the template (Ref, GetAtt, Sub, DependsOn). */
export function referenceGraph(resources: Resources): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const ids = Object.keys(resources);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const resource = resources[id];
    const targets = new Set<string>();
    const references = referencesIn(resource.Properties);
    for (let r = 0; r < references.length; r++) {
      const target = references[r].target;
      if (target !== id && Object.hasOwn(resources, target)) targets.add(target);
    }
    const dependsOn = dependsOnList(resource.DependsOn);
    for (let d = 0; d < dependsOn.length; d++) if (Object.hasOwn(resources, dependsOn[d])) targets.add(dependsOn[d]);
    graph.set(id, targets);
  }
  return graph;
}

/**
 * The function each resource belongs to (its group key, e.g. `Hello` for `HelloLambdaFunction`),
 * for the resources that can leave the root stack: a function, what references only that
 * function's resources (version, permissions, integrations, routes, methods, event rules), and
 * the log groups and REST paths only that function's resources use. `pinned` resources (the
 * user's, the deployment bucket) and shared ones get no group.
 */
export function functionGroups(resources: Resources, pinned: Set<string>, hasConditions = false): Map<string, string> {
  const graph = referenceGraph(resources);
  const ids = Object.keys(resources);
  const users = new Map<string, string[]>();
  graph.forEach((targets, id) =>
    targets.forEach(target => {
      const list = users.get(target);
      if (list) list.push(id);
      else users.set(target, [id]);
    }),
  );
  const root = new Set<string>();
  const group = new Map<string, string>();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const resource = resources[id];
    // Conditions live in the root template: what uses one stays there.
    const conditional = resource.Condition !== undefined || (hasConditions && JSON.stringify(resource).includes('"Fn::If"'));
    if (pinned.has(id) || SHARED_TYPES.has(String(resource.Type)) || conditional) root.add(id);
    else if (resource.Type === 'AWS::Lambda::Function' && id.endsWith('LambdaFunction') && id.length > 'LambdaFunction'.length) {
      group.set(id, id.slice(0, -'LambdaFunction'.length));
    }
  }
  const open = () => ids.filter(id => !root.has(id) && !group.has(id));
  for (let changed = true; changed; ) {
    changed = false;
    for (const id of open()) {
      let found: string | undefined;
      let several = false;
      for (const target of graph.get(id)!) {
        const other = group.get(target);
        if (other === undefined || other === found) continue;
        if (found === undefined) found = other;
        else several = true;
      }
      if (several) root.add(id);
      else if (found !== undefined) group.set(id, found);
      else continue;
      changed = true;
    }
    if (changed) continue;
    for (const id of open()) {
      if (!FOLLOW_USERS.has(String(resources[id].Type))) continue;
      const groups = new Set((users.get(id) ?? []).map(user => group.get(user)));
      if (groups.size !== 1 || groups.has(undefined)) continue;
      group.set(id, [...groups][0]!);
      changed = true;
    }
  }
  return group;
}
