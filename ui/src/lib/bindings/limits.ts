// Written by crates/core/src/bindings.rs from the core's limits when the tests run. Do not edit.

/** A monitor's draft (crates/core/src/monitors/rules.rs). */
export const monitorLimits = {
  nameChars: 100,
  intervalMinutes: { min: 15, max: 1440 },
  cap: { min: 1, max: 100 },
} as const;

/** When a collection stops (crates/core/src/collections.rs, check); a date or the end is estimated per `estimatePer` items. */
export const collectionLimits = {
  items: { min: 1, max: 100000 },
  estimatePer: 100,
  itemsMessage: "Choose a number from 1 to 100,000.",
  dateMissing: "Type the oldest day to collect, as YYYY-MM-DD.",
} as const;

/** An investigation's name (crates/core/src/investigations.rs, name_problem). */
export const investigationNameRule = {
  maxChars: 100,
  missing: "Give the investigation a name.",
  tooLong: "A name can be at most 100 characters.",
} as const;
