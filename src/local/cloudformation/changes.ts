import { providerFor } from '../providers/registry';
import type { Template } from '../template/types';
import type { Change, StackRecord } from './model';

/**
 * What a change set would do, read from the templates the way CloudFormation
 * previews it: added, removed and modified resources, and whether a modified
 * property replaces the physical resource.
 */
export function changesBetween(stack: StackRecord | undefined, oldTemplate: Template | undefined, newTemplate: Template, parametersChanged: string[]): Change[] {
  const changes: Change[] = [];
  const oldResources = oldTemplate?.Resources ?? {};
  for (const [logicalId, declaration] of Object.entries(newTemplate.Resources)) {
    const before = oldResources[logicalId];
    if (!before || !stack?.resources[logicalId]) {
      changes.push({ action: 'Add', logicalId, type: declaration.Type, scope: [], details: [] });
      continue;
    }
    const names = new Set([...Object.keys(before.Properties ?? {}), ...Object.keys(declaration.Properties ?? {})]);
    const changed = [...names].filter((name) => {
      const a = JSON.stringify(before.Properties?.[name]);
      const b = JSON.stringify(declaration.Properties?.[name]);
      return a !== b || parametersChanged.some((parameter) => (b ?? '').includes(`"${parameter}"`) || (b ?? '').includes(`\${${parameter}}`));
    });
    const replaceOn = providerFor(declaration.Type).replaceOn ?? [];
    if (before.Type !== declaration.Type) {
      changes.push({ action: 'Modify', logicalId, physicalId: stack.resources[logicalId].physicalId, type: declaration.Type, replacement: 'True', scope: ['Properties'], details: [] });
      continue;
    }
    if (changed.length === 0 && JSON.stringify(before.DependsOn) === JSON.stringify(declaration.DependsOn)) continue;
    if (changed.length === 0) continue;
    const details = changed.map((name) => ({ name, requiresRecreation: replaceOn.includes(name) ? ('Always' as const) : ('Never' as const) }));
    changes.push({
      action: 'Modify',
      logicalId,
      physicalId: stack.resources[logicalId].physicalId,
      type: declaration.Type,
      replacement: details.some((detail) => detail.requiresRecreation === 'Always') ? 'True' : 'False',
      scope: ['Properties'],
      details,
    });
  }
  for (const [logicalId, declaration] of Object.entries(oldResources)) {
    if (newTemplate.Resources[logicalId] || !stack?.resources[logicalId]) continue;
    changes.push({ action: 'Remove', logicalId, physicalId: stack.resources[logicalId].physicalId, type: declaration.Type, scope: [], details: [] });
  }
  return changes;
}
