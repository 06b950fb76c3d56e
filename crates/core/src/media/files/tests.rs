use super::{is_sha256, MediaFolder};
use crate::media::hash::sha256_hex;

#[tokio::test]
async fn bytes_are_kept_once_under_their_sha256_in_a_two_letter_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = MediaFolder::new(dir.path());
    let kept = folder.write(b"picture bytes").await.unwrap();
    assert_eq!(kept.sha256, sha256_hex(b"picture bytes"));
    assert_eq!(kept.size, 13);
    assert_eq!(
        kept.path,
        dir.path()
            .join("media")
            .join(&kept.sha256[..2])
            .join(&kept.sha256)
    );
    assert_eq!(folder.read(&kept.sha256).await.unwrap(), b"picture bytes");
    assert!(folder.contains(&kept.sha256));

    // The same bytes again: the same file, and no partial left behind.
    let again = folder.write(b"picture bytes").await.unwrap();
    assert_eq!(again, kept);
    let names: Vec<_> = std::fs::read_dir(folder.root())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, [kept.sha256[..2].to_owned()]);
}

#[tokio::test]
async fn a_partial_is_adopted_into_place_or_dropped_when_already_kept() {
    let dir = tempfile::tempdir().unwrap();
    let folder = MediaFolder::new(dir.path());
    std::fs::create_dir_all(folder.root()).unwrap();
    let sha = sha256_hex(b"video");
    let partial = folder.root().join("fetching-1-file.partial");
    std::fs::write(&partial, b"video").unwrap();
    let path = folder.adopt(&partial, &sha).await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"video");
    assert!(!partial.exists());

    std::fs::write(&partial, b"video").unwrap();
    assert_eq!(folder.adopt(&partial, &sha).await.unwrap(), path);
    assert!(!partial.exists(), "a second copy is dropped");

    // A file damaged since (another size under the name) is written again.
    std::fs::write(&path, b"vid").unwrap();
    folder.write(b"video").await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"video");
}

#[test]
fn a_name_is_made_only_from_a_lower_case_sha256() {
    let folder = MediaFolder::new(std::path::Path::new("/data"));
    let good = "ab".repeat(32);
    assert!(is_sha256(&good));
    assert!(folder.path(&good).is_ok());
    for bad in [
        "../../etc/passwd".to_owned(),
        "AB".repeat(32),
        "ab".repeat(31),
        format!("{}g", "a".repeat(63)),
        format!("{}/", "a".repeat(63)),
        String::new(),
    ] {
        let error = folder.path(&bad).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput, "{bad}");
    }
}
