/** The rule the service applies to `count` on the list operations (1–100), checked before sending. */
export function countError(text: string, min = 1, max = 100): string | null {
  const value = text.trim();
  return /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max ? null : `Choose a number from ${min} to ${max}.`;
}
