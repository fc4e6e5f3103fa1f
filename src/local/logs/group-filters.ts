import type { ResourceRecord } from '../cloudformation/model';
import type { LocalServices } from '../service-interfaces';
import { compileFilterPattern, type EventMatcher } from './filter-pattern';

export interface GroupFilter {
  record: ResourceRecord;
  matches: EventMatcher;
}

/**
 * The filters of one kind (subscription filters, metric filters) of each log group, their patterns
 * compiled once and read again after each stack or API change. A pattern the local cloud cannot
 * read is told to `unreadable` and the filter left out.
 */
export class GroupFilters {
  private byGroup?: Map<string, GroupFilter[]>;

  constructor(
    private readonly cloud: LocalServices,
    private readonly type: string,
    private readonly unreadable: (record: ResourceRecord, group: string) => void,
  ) {
    cloud.onStackChange(() => {
      this.byGroup = undefined;
    });
  }

  of(group: string): GroupFilter[] {
    if (!this.byGroup) {
      this.byGroup = new Map();
      for (const { record } of this.cloud.resources(this.type)) {
        const name = String(record.properties.LogGroupName);
        let matches: EventMatcher;
        try {
          matches = compileFilterPattern(record.properties.FilterPattern as string | undefined);
        } catch {
          this.unreadable(record, name);
          continue;
        }
        this.byGroup.set(name, [...(this.byGroup.get(name) ?? []), { record, matches }]);
      }
    }
    return this.byGroup.get(group) ?? [];
  }
}
