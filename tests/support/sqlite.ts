/**
 * Changes the app's database file from outside, as another program (or a newer Sightline, or a
 * failing disk) would: through Python's sqlite3, which the test machine has.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

function python(script: string, ...args: string[]): string {
  return execFileSync('python3', ['-c', script, ...args], { encoding: 'utf8' });
}

/** Runs one SQL statement on the file (SQLite's own locking applies: the app may hold it). */
export function sqlite(file: string, sql: string): void {
  python(
    `import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
db.execute(sys.argv[2])
db.commit()
db.close()`,
    file,
    sql,
  );
}

/**
 * Writes bytes no SQLite page holds over the root page of the posts table, after copying the
 * write-ahead log into the file (so no newer copy of the page stands in for it). Returns the page.
 */
export function garblePostsPage(file: string): number {
  return Number(
    python(
      `import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=30)
busy, log, copied = db.execute('PRAGMA wal_checkpoint(TRUNCATE)').fetchone()
if busy or log != copied:
    sys.exit(f'the log was not copied into the file: {busy} {log} {copied}')
page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'posts'").fetchone()[0]
size = db.execute('PRAGMA page_size').fetchone()[0]
db.close()
with open(sys.argv[1], 'r+b') as f:
    f.seek((page - 1) * size)
    f.write(bytes((i * 7 + 13) % 256 for i in range(size)))
print(page)`,
      file,
    ).trim(),
  );
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
