//! A minimal MP4 (ISO/IEC 14496-12, the ISO base media file format) holding one video track
//! whose samples are JPEG frames (the `jpeg` sample entry, "Photo - JPEG"): a real, playable
//! file made with no video encoder. Its layout is the usual progressive one: `ftyp`, then
//! `moov` (the track's tables), then `mdat` (the frames, one chunk).

/// The movie's time unit: milliseconds.
const TIMESCALE: u32 = 1000;

/// An MP4 of `frames` (JPEG bytes, each `width`×`height`), each shown for `frame_ms`.
pub fn jpeg_movie(frames: &[Vec<u8>], width: u16, height: u16, frame_ms: u32) -> Vec<u8> {
    let duration = frame_ms * frames.len() as u32;
    // Brands: ISO base media (and its 2nd edition), MP4 version 1; minor version 512.
    let ftyp = boxed(
        b"ftyp",
        &cat(&[b"isom", &512u32.to_be_bytes(), b"isom", b"iso2", b"mp41"]),
    );
    // The chunk offset is where the frames start, after `ftyp`, `moov` and `mdat`'s header;
    // `moov`'s length does not depend on the offset's value, so measure it with 0 first.
    let moov_len = moov(frames, width, height, frame_ms, duration, 0).len();
    let offset = (ftyp.len() + moov_len + 8) as u32;
    let moov = moov(frames, width, height, frame_ms, duration, offset);
    let mdat = boxed(b"mdat", &frames.concat());
    [ftyp, moov, mdat].concat()
}

fn moov(
    frames: &[Vec<u8>],
    width: u16,
    height: u16,
    frame_ms: u32,
    duration: u32,
    offset: u32,
) -> Vec<u8> {
    let n = frames.len() as u32;
    let mvhd = full(
        b"mvhd",
        0,
        0,
        &cat(&[
            &0u32.to_be_bytes(), // creation time
            &0u32.to_be_bytes(), // modification time
            &TIMESCALE.to_be_bytes(),
            &duration.to_be_bytes(),
            &0x0001_0000u32.to_be_bytes(), // rate 1.0
            &0x0100u16.to_be_bytes(),      // volume 1.0
            &[0; 10],
            &MATRIX,
            &[0; 24],
            &2u32.to_be_bytes(), // next track id
        ]),
    );
    let tkhd = full(
        b"tkhd",
        0,
        3,
        &cat(&[
            &0u32.to_be_bytes(),
            &0u32.to_be_bytes(),
            &1u32.to_be_bytes(), // track id
            &[0; 4],
            &duration.to_be_bytes(),
            &[0; 8],
            &0u16.to_be_bytes(), // layer
            &0u16.to_be_bytes(), // alternate group
            &0u16.to_be_bytes(), // volume: none for video
            &[0; 2],
            &MATRIX,
            &(u32::from(width) << 16).to_be_bytes(),
            &(u32::from(height) << 16).to_be_bytes(),
        ]),
    );
    let mdhd = full(
        b"mdhd",
        0,
        0,
        &cat(&[
            &0u32.to_be_bytes(),
            &0u32.to_be_bytes(),
            &TIMESCALE.to_be_bytes(),
            &duration.to_be_bytes(),
            &LANGUAGE_UND.to_be_bytes(),
            &[0; 2],
        ]),
    );
    let hdlr = full(
        b"hdlr",
        0,
        0,
        &cat(&[&[0; 4], b"vide", &[0; 12], b"VideoHandler\0"]),
    );
    let vmhd = full(b"vmhd", 0, 1, &[0; 8]);
    let dinf = boxed(
        b"dinf",
        &full(
            b"dref",
            0,
            0,
            &cat(&[&1u32.to_be_bytes(), &full(b"url ", 0, 1, &[])]),
        ),
    );
    let stbl = boxed(
        b"stbl",
        &cat(&[
            &full(
                b"stsd",
                0,
                0,
                &cat(&[&1u32.to_be_bytes(), &jpeg_entry(width, height)]),
            ),
            &full(
                b"stts",
                0,
                0,
                &cat(&[
                    &1u32.to_be_bytes(),
                    &n.to_be_bytes(),
                    &frame_ms.to_be_bytes(),
                ]),
            ),
            &full(
                b"stsc",
                0,
                0,
                &cat(&[
                    &1u32.to_be_bytes(),
                    &1u32.to_be_bytes(),
                    &n.to_be_bytes(),
                    &1u32.to_be_bytes(),
                ]),
            ),
            &full(
                b"stsz",
                0,
                0,
                &cat(&[
                    &0u32.to_be_bytes(),
                    &n.to_be_bytes(),
                    &frames
                        .iter()
                        .flat_map(|f| (f.len() as u32).to_be_bytes())
                        .collect::<Vec<u8>>(),
                ]),
            ),
            &full(
                b"stco",
                0,
                0,
                &cat(&[&1u32.to_be_bytes(), &offset.to_be_bytes()]),
            ),
        ]),
    );
    let minf = boxed(b"minf", &cat(&[&vmhd, &dinf, &stbl]));
    let mdia = boxed(b"mdia", &cat(&[&mdhd, &hdlr, &minf]));
    let trak = boxed(b"trak", &cat(&[&tkhd, &mdia]));
    boxed(b"moov", &cat(&[&mvhd, &trak]))
}

/// The visual sample entry of a JPEG track (ISO/IEC 14496-12 §12.1.3).
fn jpeg_entry(width: u16, height: u16) -> Vec<u8> {
    let mut name = [0u8; 32];
    let label = b"Photo - JPEG";
    name[0] = label.len() as u8;
    name[1..=label.len()].copy_from_slice(label);
    boxed(
        b"jpeg",
        &cat(&[
            &[0; 6],
            &1u16.to_be_bytes(), // data reference index
            &[0; 16],            // pre-defined and reserved
            &width.to_be_bytes(),
            &height.to_be_bytes(),
            &0x0048_0000u32.to_be_bytes(), // 72 dpi
            &0x0048_0000u32.to_be_bytes(),
            &[0; 4],
            &1u16.to_be_bytes(), // frames per sample
            &name,
            &0x0018u16.to_be_bytes(), // depth: colour
            &(-1i16).to_be_bytes(),
        ]),
    )
}

/// The identity transform of a track, as 16.16 and 2.30 fixed-point numbers.
const MATRIX: [u8; 36] = [
    0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, //
    0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0,
];

/// "und" (undetermined) packed as three 5-bit letters.
const LANGUAGE_UND: u16 =
    ((b'u' - 0x60) as u16) << 10 | ((b'n' - 0x60) as u16) << 5 | (b'd' - 0x60) as u16;

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// A box: its 32-bit size, its type, its payload.
fn boxed(kind: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    let size = (8 + payload.len()) as u32;
    cat(&[&size.to_be_bytes(), kind, payload])
}

/// A full box: a box whose payload starts with a version byte and 24 bits of flags.
fn full(kind: &[u8; 4], version: u8, flags: u32, payload: &[u8]) -> Vec<u8> {
    let head = ((u32::from(version) << 24) | (flags & 0x00FF_FFFF)).to_be_bytes();
    boxed(kind, &cat(&[&head, payload]))
}
