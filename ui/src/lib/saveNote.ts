/**
 * What became of an export or a save, as components/SavedNote.svelte shows it: its words, and
 * the file written (for "Show in folder"), when one was.
 */
export type SaveNote = { text: string; path: string | null };

/** "Saved to /path", or `words` before the path ("Saved 3 requests to /path"). */
export const savedTo = (path: string, words = 'Saved'): SaveNote => ({ text: `${words} to ${path}`, path });

/** "Not saved: why". */
export const notSaved = (why: string): SaveNote => ({ text: `Not saved: ${why}`, path: null });

/** Words with no file to show ("Export cancelled.", "The export failed: …"). */
export const noteOnly = (text: string): SaveNote => ({ text, path: null });
