/**
 * A disk that really fills up: a small tmpfs mounted over the app's data folder, and a filler
 * file that leaves only a little of it free. Mounting needs root with CAP_SYS_ADMIN (CI and this
 * workplace run as root); where it is refused the spec that needs it says so and is skipped.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Mounts a tmpfs of `sizeKiB` over `dir`; the reason when it cannot. */
export function mountSmallDisk(dir: string, sizeKiB: number): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k`, 'sightline-e2e-disk', dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `a tmpfs could not be mounted (${(error as Error).message.split('\n')[0]})`;
  }
}

/** Lazily unmounts `dir`: the app may still hold its database open while it stops. */
export function unmountSmallDisk(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  } catch (error) {
    console.warn(`umount ${dir}: ${(error as Error).message}`);
  }
}

export function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

const FILLER = 'filler.bin';

/** Writes a filler file into `dir` until only about `leaveBytes` of its disk are free. */
export function fillDisk(dir: string, leaveBytes: number): void {
  const file = openSync(path.join(dir, FILLER), 'a');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    while (freeBytes(dir) > leaveBytes + chunk.length) writeSync(file, chunk);
    const rest = freeBytes(dir) - leaveBytes;
    if (rest > 0) writeSync(file, chunk, 0, rest);
  } finally {
    closeSync(file);
  }
}

/** Removes the filler: the disk has room again. */
export function emptyDisk(dir: string): void {
  rmSync(path.join(dir, FILLER), { force: true });
}
