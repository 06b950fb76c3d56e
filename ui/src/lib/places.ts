/** Places the trends endpoint knows, by name; the number is the Where On Earth ID (WOEID). */
export const PLACES: { woeid: number; name: string }[] = [
  { woeid: 1, name: 'Worldwide' },
  { woeid: 23424977, name: 'United States' },
  { woeid: 23424975, name: 'United Kingdom' },
  { woeid: 23424775, name: 'Canada' },
  { woeid: 23424748, name: 'Australia' },
  { woeid: 23424848, name: 'India' },
  { woeid: 23424950, name: 'Spain' },
  { woeid: 23424900, name: 'Mexico' },
  { woeid: 23424747, name: 'Argentina' },
  { woeid: 23424819, name: 'France' },
  { woeid: 23424829, name: 'Germany' },
  { woeid: 23424768, name: 'Brazil' },
  { woeid: 23424925, name: 'Portugal' },
  { woeid: 23424856, name: 'Japan' },
];

/** How a place reads to people: its name ("Worldwide" for 1), or its WOEID when not in the list above. */
export function placeName(woeid: number): string {
  return PLACES.find((place) => place.woeid === woeid)?.name ?? `WOEID ${woeid}`;
}
