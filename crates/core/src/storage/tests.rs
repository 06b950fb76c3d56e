use std::path::Path;

use super::compact::refusal;
use super::*;

const GB: u64 = 1_000_000_000;

#[test]
fn one_disk_needs_room_for_the_copy_and_the_log() {
    let (tmp, data) = (Path::new("/tmp"), Path::new("/data"));
    let live = 10 * GB;
    let margin = 64 << 20;
    // One disk: the copy and the log, 20 GB and the margin.
    assert_eq!(
        refusal(live, (tmp, Some(30 * GB)), (data, Some(20 * GB)), true),
        Some(CompactOutcome::NoRoom {
            folder: "/data".into(),
            needed_bytes: 2 * live + margin,
            free_bytes: 20 * GB,
        })
    );
    assert_eq!(
        refusal(live, (tmp, Some(0)), (data, Some(21 * GB)), true),
        None
    );
    // Two disks: each its own half.
    assert_eq!(
        refusal(live, (tmp, Some(9 * GB)), (data, Some(50 * GB)), false),
        Some(CompactOutcome::NoRoom {
            folder: "/tmp".into(),
            needed_bytes: live + margin,
            free_bytes: 9 * GB,
        })
    );
    assert_eq!(
        refusal(live, (tmp, Some(11 * GB)), (data, Some(11 * GB)), false),
        None
    );
    // A system that cannot say is not refused: SQLite stops a full disk's VACUUM whole.
    assert_eq!(refusal(live, (tmp, None), (data, None), false), None);
}

#[test]
fn the_disk_is_low_under_a_gibibyte_or_the_database_size() {
    let here = Path::new(".");
    let room = sightline_store::disk_room(here).unwrap();
    let small = disk_space(here, 0);
    assert_eq!(small.warn_below_bytes, LOW_FLOOR);
    assert_eq!(small.low, room.free_bytes < LOW_FLOOR);
    // A database larger than the free room: too little left to copy it before an upgrade.
    let large = disk_space(here, room.free_bytes + 1);
    assert_eq!(large.warn_below_bytes, room.free_bytes + 1);
    assert!(large.low);
}
