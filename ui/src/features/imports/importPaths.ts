/**
 * The file each import started in this window read, by import id: Resume offers the same path
 * again (the store keeps the file's name and SHA-256, not where it was; a file picked again is
 * hashed and refused if it changed).
 */
const paths = new Map<number, string>();

export function rememberPath(importId: number, path: string): void {
  if (path) paths.set(importId, path);
}

export function rememberedPath(importId: number): string {
  return paths.get(importId) ?? '';
}
