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
