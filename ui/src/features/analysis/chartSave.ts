/**
 * Saving a chart for a report: PNG bytes from a canvas, or SVG text, written by Rust to the
 * export folder (or where the save dialog says). Each answers what to tell the user.
 */
import { analysisSaveChart, asCommandError } from '$lib/ipc';
import type { ChartFormat } from '$lib/bindings/ChartFormat';
import { notSaved, savedTo, type SaveNote } from '$lib/saveNote';

export { notSaved, savedTo, type SaveNote };

/** "Saved to /path" (with the path, for "Show in folder") or "Not saved: …"; null when the dialog was closed. */
export async function saveChart(name: string, format: ChartFormat, bytes: Uint8Array): Promise<SaveNote | null> {
  try {
    const path = await analysisSaveChart(name, format, bytes);
    return path ? savedTo(path) : null;
  } catch (failure) {
    return notSaved(asCommandError(failure).message);
  }
}

export function saveSvg(name: string, svg: string): Promise<SaveNote | null> {
  return saveChart(name, 'svg', new TextEncoder().encode(svg));
}

export async function savePng(name: string, canvas: HTMLCanvasElement): Promise<SaveNote | null> {
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) return notSaved('the chart could not be drawn as a picture.');
  return saveChart(name, 'png', new Uint8Array(await blob.arrayBuffer()));
}
