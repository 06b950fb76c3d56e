import { describe, expect, it } from 'vitest';
import { TIME_ZONE_NAMES } from './bindings/TimeZoneNames';
import { usableZone, utcOffset, zonedTime } from './format';

// The shared rule: Settings offers only zones Rust accepts (crates/core/src/zone.rs writes this
// list when its tests run and checks each one parses), and the UI must be able to show a time
// in every one of them.
describe("the display zones Rust offers", () => {
  it('are all real IANA zones this JavaScript engine formats', () => {
    expect(TIME_ZONE_NAMES.length).toBeGreaterThan(300);
    expect(TIME_ZONE_NAMES).toContain('Asia/Kolkata');
    expect(TIME_ZONE_NAMES).toContain('UTC');
    const unusable = TIME_ZONE_NAMES.filter((zone) => usableZone(zone) !== zone);
    expect(unusable).toEqual([]);
    for (const zone of TIME_ZONE_NAMES) expect(zonedTime(new Date('2026-11-23T18:04:00Z'), zone)).toMatch(/^\d{1,2} \w{3} 2026, \d{2}:\d{2} \S+$/);
  });

  it('do not include the misleading POSIX aliases', () => {
    for (const alias of ['Etc/GMT+5', 'EST5EDT', 'US/Pacific', 'GB']) expect(TIME_ZONE_NAMES).not.toContain(alias);
    expect(utcOffset('Asia/Kathmandu', new Date('2026-01-01T00:00:00Z'))).toBe('UTC+05:45');
  });
});
