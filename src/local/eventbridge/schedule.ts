/** When schedule expressions fire: `rate(5 minutes)`, six-field `cron(…)` (in UTC, or for EventBridge Scheduler in the schedule's time zone) and Scheduler's one-time `at(…)`. */

const UNIT_MS: Record<string, number> = { minute: 60_000, minutes: 60_000, hour: 3_600_000, hours: 3_600_000, day: 86_400_000, days: 86_400_000 };

export function rateInterval(expression: string): number | undefined {
  const match = /^rate\((\d+)\s+(minutes?|hours?|days?)\)$/.exec(expression.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]] : undefined;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

function fieldMatches(field: string, value: number, names: string[] = [], base = 0): boolean {
  if (field === '*' || field === '?') return true;
  return field.split(',').some((part) => {
    const [range, stepText] = part.split('/');
    const step = stepText ? Number(stepText) : 1;
    const parse = (text: string) => {
      const index = names.indexOf(text.toUpperCase());
      return index === -1 ? Number(text.replace(/[LW#].*$/, '')) : index + base;
    };
    let low: number;
    let high: number;
    if (range === '*') {
      low = -Infinity;
      high = Infinity;
    } else if (range.includes('-')) {
      [low, high] = range.split('-').map(parse);
    } else {
      low = parse(range);
      high = stepText ? Infinity : low;
    }
    if (value < low || value > high) return false;
    return Number.isFinite(low) ? (value - low) % step === 0 : value % step === 0;
  });
}

interface ClockFields {
  minute: number;
  hour: number;
  day: number;
  /** 1-12 */
  month: number;
  /** 0 (Sunday) - 6 */
  weekday: number;
  year: number;
}

/** The wall-clock fields of an instant in a time zone (an IANA name such as America/New_York; UTC when none). */
function clockIn(time: Date, timeZone?: string): ClockFields {
  if (!timeZone || timeZone === 'UTC') {
    return { minute: time.getUTCMinutes(), hour: time.getUTCHours(), day: time.getUTCDate(), month: time.getUTCMonth() + 1, weekday: time.getUTCDay(), year: time.getUTCFullYear() };
  }
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' })
      .formatToParts(time)
      .map((part) => [part.type, part.value]),
  );
  return { minute: Number(parts.minute), hour: Number(parts.hour), day: Number(parts.day), month: Number(parts.month), weekday: DAYS.indexOf(parts.weekday.toUpperCase()), year: Number(parts.year) };
}

/** Whether `cron(min hour day-of-month month day-of-week year)` fires in the minute of `time` (its clock in `timeZone`, UTC by default). */
export function cronMatches(expression: string, time: Date, timeZone?: string): boolean {
  const match = /^cron\((.+)\)$/.exec(expression.trim());
  if (!match) return false;
  const fields = match[1].trim().split(/\s+/);
  if (fields.length !== 6) return false;
  const [minute, hour, dayOfMonth, month, dayOfWeek, year] = fields;
  const clock = clockIn(time, timeZone);
  return (
    fieldMatches(minute, clock.minute) &&
    fieldMatches(hour, clock.hour) &&
    fieldMatches(dayOfMonth, clock.day) &&
    fieldMatches(month, clock.month, MONTHS, 1) &&
    fieldMatches(dayOfWeek, clock.weekday + 1, DAYS, 1) &&
    fieldMatches(year, clock.year)
  );
}

/**
 * The instant of a one-time schedule, `at(2026-12-01T09:30:00)`, its wall-clock time read in
 * `timeZone` (UTC by default), or undefined for another expression.
 */
export function atInstant(expression: string, timeZone?: string): number | undefined {
  const match = /^at\((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\)$/.exec(expression.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (!timeZone || timeZone === 'UTC') return asUtc;
  // The zone's offset at that moment: the wall clock it shows for asUtc, against asUtc (twice, for a change of offset in between).
  let instant = asUtc;
  for (let pass = 0; pass < 2; pass++) {
    const clock = clockIn(new Date(instant), timeZone);
    const shown = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, new Date(instant).getUTCSeconds());
    instant = asUtc - (shown - instant);
  }
  return instant;
}
