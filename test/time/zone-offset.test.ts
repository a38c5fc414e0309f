import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isKnownZone, ZoneOffsetReader } from '../../src/time/zone-offset.js';
import { getZoneRules } from '../../src/time/zone.js';

// The reader replaced luxon's IANAZone in the zone tables: every answer must be the one luxon gave.
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Sao_Paulo', 'Pacific/Chatham', 'Africa/Casablanca', 'Europe/Dublin', 'America/St_Johns', 'Asia/Kathmandu', 'Etc/GMT+5', 'UTC'];

const INSTANTS = [
  ...Array.from({ length: 60 }, (_, i) => Date.UTC(-500 + i * 50, 5, 15, 12, 30, 7)),
  ...Array.from({ length: 100 }, (_, i) => Date.UTC(2026, 0, 1) + i * 3.65 * 86_400_000 + 1_234_567),
  // Years 0-99 (Date.UTC reads them as 19xx), LMT offsets with seconds, second and sign boundaries.
  Date.UTC(50, 1, 28),
  Date.parse('1883-11-18T16:59:59Z'),
  Date.parse('1880-01-01T00:00:00Z'),
  Date.parse('2026-03-08T06:59:59.999Z'),
  Date.parse('2026-03-08T07:00:00Z'),
  -1,
  -1001,
  0,
  1.5,
  8.64e15,
  8.64e15 + 1,
  Number.NaN,
];

describe('ZoneOffsetReader', () => {
  it.each(ZONES)('gives luxon IANAZone.offset answers in %s', (zone) => {
    const reader = new ZoneOffsetReader(zone);
    const luxon = IANAZone.create(zone);
    expect(INSTANTS.map((t) => reader.offsetMinutes(t))).toEqual(INSTANTS.map((t) => luxon.offset(t)));
  });

  it('agrees with IANAZone.isValidZone', () => {
    const names = [...ZONES, 'Asia/Calcutta', 'EST', 'KST', '', 'Mars/Olympus', 'europe/berlin', 'Etc/GMT+15', 'America/New York', '+09:00'];
    expect(names.map(isKnownZone)).toEqual(names.map((name) => IANAZone.isValidZone(name)));
  });

  it('reads UTC as offset 0 without Intl, as luxon does through Intl', () => {
    const rules = getZoneRules('UTC');
    const luxon = IANAZone.create('UTC');
    const finite = INSTANTS.filter((t) => Math.abs(t) <= 8.64e15);
    expect(finite.map((t) => rules.offsetAt(t))).toEqual(finite.map((t) => luxon.offset(t) * 60_000));
    expect(rules.transitionsBetween(Date.UTC(2020, 0, 1), Date.UTC(2030, 0, 1))).toEqual([]);
  });
});
