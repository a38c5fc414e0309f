/** Human-readable cron, via cronstrue, in 24-hour time with the zone named. */
import cronstrue from 'cronstrue';

export function describeCron(expression: string, timezone: string): string {
  return `${describeCronWords(expression)} (${timezone})`;
}

/** The words alone (the expression itself when cronstrue cannot read it), for a table with a zone column. */
export function describeCronWords(expression: string): string {
  try {
    return cronstrue.toString(expression, { use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch {
    return expression;
  }
}
