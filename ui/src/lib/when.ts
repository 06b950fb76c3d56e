/**
 * The first names of two time helpers, kept for the screens that still import them: both are
 * lib/format.ts's, in the display zone with the zone named. New code imports from format.ts.
 */
export { zonedTime as formatWhen, zoneDay as localDay } from './format';
