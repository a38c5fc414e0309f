/**
 * A zone's UTC offset at an instant, read from the platform's IANA database through Intl: the
 * arithmetic of luxon's `IANAZone.offset`, from `DateTimeFormat.format` instead of `formatToParts`.
 * Zone tables ask for an offset per day of a year (~7,700 times for ten zones), and `formatToParts`
 * builds an array of a dozen part objects each time (~5 µs against ~1.5 µs); luxon was also the
 * largest module `validate` loaded for nothing else.
 */

/** luxon's `IANAZone.isValidZone`: a zone Intl can format in. */
export function isKnownZone(name: string): boolean {
  if (!name) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name }).format();
    return true;
  } catch {
    return false;
  }
}

type Field = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';
const FIELDS: readonly string[] = ['year', 'month', 'day', 'hour', 'minute', 'second'];

export class ZoneOffsetReader {
  private readonly format: Intl.DateTimeFormat;
  /** The numeric fields in the order the formatted text shows them (month/day/year, hour:minute:second in en-US). */
  private readonly order: Field[];
  private readonly values = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };

  constructor(name: string) {
    // luxon's options: 24-hour clock, an era so years before 1 read right.
    this.format = new Intl.DateTimeFormat('en-US', { hour12: false, timeZone: name, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', era: 'short' });
    this.order = this.format
      .formatToParts(0)
      .map((part) => part.type)
      .filter((type): type is Field => FIELDS.includes(type));
    if (this.order.length !== FIELDS.length) throw new Error(`unexpected date layout for time zone ${name}`);
  }

  /** Minutes east of UTC at `utcMs` (fractional for offsets with seconds); NaN for an invalid instant. */
  offsetMinutes(utcMs: number): number {
    const date = new Date(utcMs);
    const ms = date.getTime();
    if (Number.isNaN(ms)) return Number.NaN;
    const text = this.format.format(date);
    // The numbers of the text in order: the layout has no other digits (the era is AD or BC).
    const values = this.values;
    let field = 0;
    let value = -1;
    for (let i = 0; i <= text.length; i += 1) {
      const digit = text.charCodeAt(i) - 48;
      if (digit >= 0 && digit <= 9) {
        value = (value === -1 ? 0 : value * 10) + digit;
      } else if (value !== -1) {
        values[this.order[field] as Field] = value;
        field += 1;
        value = -1;
      }
    }
    const year = text.includes('BC') ? -values.year + 1 : values.year;
    // hour12: false formats midnight as 24 on some platforms.
    const hour = values.hour === 24 ? 0 : values.hour;
    let localMs = Date.UTC(year, values.month - 1, values.day, hour, values.minute, values.second, 0);
    // Date.UTC reads years 0-99 as 1900-1999.
    if (year < 100 && year >= 0) {
      const local = new Date(localMs);
      local.setUTCFullYear(year, values.month - 1, values.day);
      localMs = local.getTime();
    }
    const over = ms % 1000;
    const wholeSecondMs = ms - (over >= 0 ? over : 1000 + over);
    return (localMs - wholeSecondMs) / (60 * 1000);
  }
}
