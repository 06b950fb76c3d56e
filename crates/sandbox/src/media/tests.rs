use super::*;

fn decode(bytes: &[u8]) -> image::RgbImage {
    image::load_from_memory(bytes).unwrap().to_rgb8()
}

#[test]
fn a_seed_always_gives_the_same_bytes() {
    for variant in [
        Variant::Original,
        Variant::Resized(0.5),
        Variant::Recompressed(40),
        Variant::Cropped(6),
    ] {
        assert_eq!(picture(7, variant), picture(7, variant), "{variant:?}");
    }
    assert_eq!(picture_png(7), picture_png(7));
    assert_ne!(picture(7, Variant::Original), picture(8, Variant::Original));
}

#[test]
fn copies_are_the_changed_picture() {
    let (w, h) = picture_size(3);
    let original = picture(3, Variant::Original);
    assert_eq!(&original[..3], &[0xFF, 0xD8, 0xFF], "a JPEG");
    assert_eq!(decode(&original).dimensions(), (w, h));

    let half = decode(&picture(3, Variant::Resized(0.5)));
    assert_eq!(half.dimensions(), (w / 2, h / 2));

    let cropped = decode(&picture(3, Variant::Cropped(10)));
    assert_eq!(cropped.dimensions(), (w - w / 10, h - h / 10));

    let worse = picture(3, Variant::Recompressed(30));
    assert_eq!(decode(&worse).dimensions(), (w, h));
    assert!(
        worse.len() < original.len() * 3 / 4,
        "{} vs {}",
        worse.len(),
        original.len()
    );

    let png = picture_png(3);
    assert_eq!(&png[..4], b"\x89PNG");
    assert_eq!(decode(&png).dimensions(), (w, h));
}

/// A picture has structure, not flat colour or noise: its brightness spreads widely, and
/// neighbouring pixels are mostly alike.
#[test]
fn pictures_have_structure() {
    for seed in 0..8 {
        let img = image::DynamicImage::ImageRgb8(decode(&picture_png(seed))).to_luma8();
        let (w, h) = img.dimensions();
        let values: Vec<u8> = img.pixels().map(|p| p.0[0]).collect();
        let (lo, hi) = (values.iter().min().unwrap(), values.iter().max().unwrap());
        assert!(hi - lo > 100, "seed {seed}: brightness {lo}..{hi}");
        let alike = (1..w)
            .flat_map(|x| (0..h).map(move |y| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0[0].abs_diff(img.get_pixel(x - 1, y).0[0]) < 8)
            .count();
        assert!(
            alike * 10 > ((w - 1) * h) as usize * 9,
            "seed {seed}: {alike} alike"
        );
    }
}

/// The tests' ground truth of planted media (`tests/fixtures/planted_media.json`) for the world
/// of seed 42: the copies of each family picture, and the links that have gone, one a line.
fn planted_media(world: &crate::World) -> String {
    use std::fmt::Write;
    let mut families: Vec<Vec<String>> =
        vec![Vec::new(); (RECENT_FAMILIES + OLDER_FAMILIES) as usize];
    let mut gone = Vec::new();
    for post in &world.posts {
        for m in &post.media {
            let p = plan(world.seed, world.now_ms, post.created_ms, m);
            if let Some(status) = p.gone {
                gone.push(format!(
                    r#"{{"file_key": "{}", "kind": "{}", "status": {status}}}"#,
                    m.file_key,
                    m.kind.as_str()
                ));
            }
            if let Some(f) = p.family {
                let variant = match p.variant {
                    Variant::Original => String::from(r#"{"kind": "original"}"#),
                    Variant::Resized(f) => format!(r#"{{"kind": "resized", "factor": {f}}}"#),
                    Variant::Recompressed(q) => {
                        format!(r#"{{"kind": "recompressed", "quality": {q}}}"#)
                    }
                    Variant::Cropped(pct) => format!(r#"{{"kind": "cropped", "percent": {pct}}}"#),
                };
                families[f as usize].push(format!(
                    r#"{{"file_key": "{}", "variant": {variant}}}"#,
                    m.file_key
                ));
            }
        }
    }
    let mut out = String::from("{\n");
    out.push_str(concat!(
        r#"  "about": "The media the sandbox's world of seed 42 plants (crates/sandbox/src/media/plan.rs), for tests to measure media keeping and matching against. "#,
        r#"Each family is one picture posted again by different posts: as the same bytes (original), resized, recompressed at a lower JPEG quality, or with a share of each side cut off (cropped, half on each side). "#,
        r#"Families 0-5 are copied in the last 14 days before the world's now, the others before. Every other photo and video is a picture of its own. "#,
        r#"Gone links answer their status for every URL of the media (picture, poster, video variants). Keys are the file keys in the media URLs (/media/<key>.jpg, /video/<key>/...). "#,
        r#"The trickle's posts (live rate above 0) are not listed. Not served by the sandbox, not shown by the app. Rewrite with SIGHTLINE_WRITE_PLANTED_MEDIA=1 cargo test -p sightline-sandbox --lib planted_media","#,
        "\n"
    ));
    out.push_str("  \"seed\": 42,\n  \"families\": [\n");
    for (f, copies) in families.iter().enumerate() {
        let _ = write!(
            out,
            "    {{\"family\": {f}, \"recent\": {}, \"copies\": [\n      {}\n    ]}}{}\n",
            (f as u32) < RECENT_FAMILIES,
            copies.join(",\n      "),
            if f + 1 < families.len() { "," } else { "" }
        );
    }
    out.push_str("  ],\n  \"gone\": [\n    ");
    out.push_str(&gone.join(",\n    "));
    out.push_str("\n  ]\n}\n");
    out
}

/// The file the tests read lists exactly what the plan makes of the world of seed 42, and the
/// world's "now" changes none of it (file keys and posts' ages are drawn the same).
#[test]
fn the_tests_ground_truth_lists_the_planted_media() {
    const NOW: i64 = 1_795_176_000_000;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/planted_media.json"
    );
    let made = planted_media(&crate::World::generate(42, NOW));
    if std::env::var_os("SIGHTLINE_WRITE_PLANTED_MEDIA").is_some() {
        std::fs::write(path, &made).unwrap();
    }
    let kept = std::fs::read_to_string(path).unwrap();
    assert!(made == kept, "{path} is out of step with media/plan.rs");
    let truth: serde_json::Value = serde_json::from_str(&kept).unwrap();
    let families = truth["families"].as_array().unwrap();
    for family in families {
        assert!(family["copies"].as_array().unwrap().len() >= 4, "{family}");
    }
    let statuses: Vec<u64> = truth["gone"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["status"].as_u64().unwrap())
        .collect();
    assert!(statuses.contains(&404) && statuses.contains(&410));

    let later = planted_media(&crate::World::generate(42, NOW + 37 * crate::world::DAY_MS));
    assert!(later == made, "the planted media depend on the world's now");
}

/// Videos stay small, larger variants are larger files, and a seed gives the same bytes.
#[test]
fn videos_are_small_and_grow_with_their_size() {
    for seed in [1, 2] {
        let sizes: Vec<usize> = VIDEO_SIZES.iter().map(|&s| video(seed, s).len()).collect();
        println!("video {seed}: {sizes:?} bytes");
        assert!(sizes.windows(2).all(|w| w[0] < w[1]), "{sizes:?}");
        assert!(sizes[0] > 5_000 && sizes[2] < 200_000, "{sizes:?}");
        assert_eq!(video(seed, VIDEO_SIZES[0]), video(seed, VIDEO_SIZES[0]));
    }
    let poster = image::load_from_memory(&poster(1)).unwrap();
    assert_eq!((poster.width(), poster.height()), (640, 360));
}
