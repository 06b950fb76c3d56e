//! Deterministic pictures: a scene drawn from a seed (a gradient sky, discs, rings, boxes,
//! triangles and a panel of text-like word blocks), so that perceptual hashes see real
//! structure, and the copies a picture gets when it travels: resized, recompressed, cropped.
//!
//! A scene is laid out in coordinates relative to the picture's size, so it can be drawn at any
//! size and, for a video, at any moment (`draw(…, t)` moves the shapes along their paths).

use crate::rng::Rng;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::imageops::{self, FilterType};
use image::{ImageEncoder, RgbImage};

/// The JPEG quality of an original picture (a camera's or a phone's usual setting).
pub const ORIGINAL_QUALITY: u8 = 90;

/// Which copy of a seed's picture: the original, or one changed as pictures are when they are
/// saved and posted again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Variant {
    /// The picture as first posted: JPEG at [`ORIGINAL_QUALITY`].
    Original,
    /// Scaled by this factor (0.5 halves each side; at least 16 px a side), then JPEG at
    /// [`ORIGINAL_QUALITY`].
    Resized(f32),
    /// The original's pixels saved again as JPEG at this quality (1–100).
    Recompressed(u8),
    /// This percentage (0–40) of the width and of the height cut off, half on each side, then
    /// JPEG at [`ORIGINAL_QUALITY`].
    Cropped(u8),
}

/// The JPEG bytes of `seed`'s picture as `variant`: the same bytes for the same arguments on
/// every run and machine.
pub fn picture(seed: u64, variant: Variant) -> Vec<u8> {
    let (pixels, quality) = copy_pixels(seed, variant);
    jpeg(&pixels, quality)
}

/// The pixels of `seed`'s picture as `variant`, and the JPEG quality they are saved at.
pub(crate) fn copy_pixels(seed: u64, variant: Variant) -> (RgbImage, u8) {
    let scene = Scene::new(seed);
    let (w, h) = scene.size;
    let original = scene.draw(w, h, 0.0);
    let (cw, ch) = copy_size(seed, variant);
    match variant {
        Variant::Original => (original, ORIGINAL_QUALITY),
        Variant::Resized(_) => (
            imageops::resize(&original, cw, ch, FilterType::Triangle),
            ORIGINAL_QUALITY,
        ),
        Variant::Recompressed(quality) => (original, quality.clamp(1, 100)),
        Variant::Cropped(_) => (
            imageops::crop_imm(&original, (w - cw) / 2, (h - ch) / 2, cw, ch).to_image(),
            ORIGINAL_QUALITY,
        ),
    }
}

/// The size (width, height) of `seed`'s picture as `variant`.
pub fn copy_size(seed: u64, variant: Variant) -> (u32, u32) {
    let (w, h) = picture_size(seed);
    match variant {
        Variant::Original | Variant::Recompressed(_) => (w, h),
        Variant::Resized(factor) => {
            let side = |n: u32| ((n as f32 * factor).round() as u32).max(16);
            (side(w), side(h))
        }
        Variant::Cropped(pct) => {
            let pct = u32::from(pct.min(40));
            (w - w * pct / 100, h - h * pct / 100)
        }
    }
}

/// The PNG bytes of `seed`'s original picture (lossless: the pixels the JPEG original starts
/// from).
pub fn picture_png(seed: u64) -> Vec<u8> {
    png(&copy_pixels(seed, Variant::Original).0)
}

/// PNG bytes of `img` (lossless).
pub(crate) fn png(img: &RgbImage) -> Vec<u8> {
    let mut out = Vec::new();
    PngEncoder::new(&mut out)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .expect("encoding to memory cannot fail");
    out
}

/// The size (width, height) of `seed`'s original picture.
pub fn picture_size(seed: u64) -> (u32, u32) {
    Scene::new(seed).size
}

/// JPEG bytes of `img` at `quality`.
pub(crate) fn jpeg(img: &RgbImage, quality: u8) -> Vec<u8> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, quality)
        .encode_image(img)
        .expect("encoding to memory cannot fail");
    out
}

/// Sizes of original pictures: landscape, portrait, wide and square, as phones and cameras
/// make them (small, so the sandbox stays quick).
const SIZES: [(u32, u32); 5] = [(480, 360), (360, 480), (512, 288), (400, 400), (480, 320)];

type Colour = [u8; 3];

/// A point in picture coordinates: x and y from 0 to 1 across the width and the height.
#[derive(Clone, Copy)]
struct Pt {
    x: f32,
    y: f32,
}

enum Shape {
    /// Centre, radius (share of the shorter side), colour.
    Disc(Pt, f32, Colour),
    /// Centre, outer radius, ring width (shares of the shorter side), colour.
    Ring(Pt, f32, f32, Colour),
    /// Top-left and bottom-right corners, colour.
    Rect(Pt, Pt, Colour),
    Triangle([Pt; 3], Colour),
}

/// A light panel holding rows of dark word blocks, like a caption or a screenshot of text.
struct Panel {
    from: Pt,
    to: Pt,
    paper: Colour,
    ink: Colour,
    /// Per row, the word blocks as (start, end) shares of the panel's inner width.
    rows: Vec<Vec<(f32, f32)>>,
}

/// Everything a seed's picture is made of.
pub(crate) struct Scene {
    pub(crate) size: (u32, u32),
    sky: [Colour; 2],
    /// Direction of the gradient (radians).
    angle: f32,
    shapes: Vec<(Shape, Pt)>,
    panel: Option<Panel>,
}

fn colour(rng: &mut Rng) -> Colour {
    [
        rng.below(256) as u8,
        rng.below(256) as u8,
        rng.below(256) as u8,
    ]
}

fn point(rng: &mut Rng) -> Pt {
    Pt {
        x: rng.unit() as f32,
        y: rng.unit() as f32,
    }
}

impl Scene {
    pub(crate) fn new(seed: u64) -> Scene {
        let mut rng = Rng::derive(seed, 0x9_1C7);
        let size = SIZES[rng.below(SIZES.len())];
        // One dark and one light end, so every sky has a clear gradient of brightness.
        let dark = colour(&mut rng).map(|c| c / 3);
        let light = colour(&mut rng).map(|c| 255 - (255 - c) / 3);
        let sky = if rng.chance(0.5) {
            [dark, light]
        } else {
            [light, dark]
        };
        let angle = (rng.unit() * std::f64::consts::TAU) as f32;
        let count = 4 + rng.below(6);
        let shapes = (0..count)
            .map(|_| {
                let c = point(&mut rng);
                let r = 0.08 + rng.unit() as f32 * 0.22;
                let fill = colour(&mut rng);
                let shape = match rng.below(4) {
                    0 => Shape::Disc(c, r, fill),
                    1 => Shape::Ring(c, r, r * (0.2 + rng.unit() as f32 * 0.3), fill),
                    2 => {
                        let (hw, hh) = (r * (0.5 + rng.unit() as f32), r);
                        Shape::Rect(
                            Pt {
                                x: c.x - hw,
                                y: c.y - hh,
                            },
                            Pt {
                                x: c.x + hw,
                                y: c.y + hh,
                            },
                            fill,
                        )
                    }
                    _ => Shape::Triangle([point(&mut rng), point(&mut rng), point(&mut rng)], fill),
                };
                // How far the shape travels over one unit of video time.
                let drift = Pt {
                    x: (rng.unit() as f32 - 0.5) * 0.3,
                    y: (rng.unit() as f32 - 0.5) * 0.3,
                };
                (shape, drift)
            })
            .collect();
        let panel = rng.chance(0.7).then(|| {
            let from = Pt {
                x: 0.05 + rng.unit() as f32 * 0.35,
                y: 0.05 + rng.unit() as f32 * 0.5,
            };
            let to = Pt {
                x: (from.x + 0.3 + rng.unit() as f32 * 0.3).min(0.95),
                y: (from.y + 0.15 + rng.unit() as f32 * 0.25).min(0.95),
            };
            let rows = (0..2 + rng.below(4))
                .map(|_| {
                    let mut words = Vec::new();
                    let mut at = 0.0f32;
                    loop {
                        let len = 0.06 + rng.unit() as f32 * 0.2;
                        if at + len > 1.0 {
                            break;
                        }
                        words.push((at, at + len));
                        at += len + 0.04;
                    }
                    words
                })
                .collect();
            Panel {
                from,
                to,
                paper: colour(&mut rng).map(|c| 215 + c / 7),
                ink: colour(&mut rng).map(|c| c / 6),
                rows,
            }
        });
        Scene {
            size,
            sky,
            angle,
            shapes,
            panel,
        }
    }

    /// The scene drawn at `w`×`h`, its shapes moved to time `t` (0 for a still picture).
    pub(crate) fn draw(&self, w: u32, h: u32, t: f32) -> RgbImage {
        let (dx, dy) = (self.angle.cos(), self.angle.sin());
        // Plain loops over the bytes: the sandbox is built without optimisation in tests, where
        // per-pixel closures cost more than the drawing itself.
        let mut sky = Vec::with_capacity(w as usize * h as usize * 3);
        let [a, b] = self.sky;
        for y in 0..h {
            let v = y as f32 / h as f32 - 0.5;
            for x in 0..w {
                let u = x as f32 / w as f32 - 0.5;
                let k = ((u * dx + v * dy) * std::f32::consts::SQRT_2 + 0.5).clamp(0.0, 1.0);
                for i in 0..3 {
                    sky.push((a[i] as f32 + (b[i] as f32 - a[i] as f32) * k).round() as u8);
                }
            }
        }
        let mut img = RgbImage::from_raw(w, h, sky).expect("the buffer fits the size");
        let short = w.min(h) as f32;
        for (shape, drift) in &self.shapes {
            let moved = |p: Pt| Pt {
                x: p.x + drift.x * t,
                y: p.y + drift.y * t,
            };
            match *shape {
                Shape::Disc(c, r, fill) => {
                    let c = moved(c);
                    let r = r * short;
                    ring(&mut img, (c.x * w as f32, c.y * h as f32), r, r, fill);
                }
                Shape::Ring(c, r, width, fill) => {
                    let c = moved(c);
                    ring(
                        &mut img,
                        (c.x * w as f32, c.y * h as f32),
                        r * short,
                        width * short,
                        fill,
                    );
                }
                Shape::Rect(a, b, fill) => {
                    let (a, b) = (moved(a), moved(b));
                    rect(&mut img, scale(a, w, h), scale(b, w, h), fill);
                }
                Shape::Triangle(pts, fill) => {
                    triangle(&mut img, pts.map(|p| scale(moved(p), w, h)), fill);
                }
            }
        }
        if let Some(panel) = &self.panel {
            let (a, b) = (scale(panel.from, w, h), scale(panel.to, w, h));
            rect(&mut img, a, b, panel.paper);
            let margin = (b.1 - a.1).min(b.0 - a.0) * 0.1;
            let inner = ((a.0 + margin), (b.0 - margin));
            let row_h = (b.1 - a.1 - 2.0 * margin) / panel.rows.len() as f32;
            for (i, words) in panel.rows.iter().enumerate() {
                let top = a.1 + margin + row_h * i as f32 + row_h * 0.2;
                let bottom = top + row_h * 0.55;
                for &(s, e) in words {
                    let x0 = inner.0 + (inner.1 - inner.0) * s;
                    let x1 = inner.0 + (inner.1 - inner.0) * e;
                    rect(&mut img, (x0, top), (x1, bottom), panel.ink);
                }
            }
        }
        img
    }
}

fn scale(p: Pt, w: u32, h: u32) -> (f32, f32) {
    (p.x * w as f32, p.y * h as f32)
}

/// Sets pixel (x, y), inside the picture, to `fill`.
fn paint(img: &mut RgbImage, x: u32, y: u32, fill: Colour) {
    let i = (y as usize * img.width() as usize + x as usize) * 3;
    let bytes: &mut [u8] = img;
    bytes[i..i + 3].copy_from_slice(&fill);
}

/// The pixel range [from, to) covered by the span `lo..hi`, kept inside `0..n`.
fn span(lo: f32, hi: f32, n: u32) -> std::ops::Range<u32> {
    let from = lo.floor().clamp(0.0, n as f32) as u32;
    let to = hi.ceil().clamp(0.0, n as f32) as u32;
    from..to
}

/// Fills a ring of outer radius `r` and width `width` around `c` (a disc when the width is the
/// radius).
fn ring(img: &mut RgbImage, c: (f32, f32), r: f32, width: f32, fill: Colour) {
    let (w, h) = img.dimensions();
    let inner = (r - width).max(0.0);
    for y in span(c.1 - r, c.1 + r, h) {
        for x in span(c.0 - r, c.0 + r, w) {
            let d = ((x as f32 + 0.5 - c.0).powi(2) + (y as f32 + 0.5 - c.1).powi(2)).sqrt();
            if d <= r && d >= inner {
                paint(img, x, y, fill);
            }
        }
    }
}

fn rect(img: &mut RgbImage, a: (f32, f32), b: (f32, f32), fill: Colour) {
    let (w, h) = img.dimensions();
    for y in span(a.1, b.1, h) {
        for x in span(a.0, b.0, w) {
            paint(img, x, y, fill);
        }
    }
}

fn triangle(img: &mut RgbImage, p: [(f32, f32); 3], fill: Colour) {
    let (w, h) = img.dimensions();
    let edge = |a: (f32, f32), b: (f32, f32), x: f32, y: f32| {
        (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0)
    };
    let lo = |i: usize| {
        p.iter()
            .map(|q| if i == 0 { q.0 } else { q.1 })
            .fold(f32::MAX, f32::min)
    };
    let hi = |i: usize| {
        p.iter()
            .map(|q| if i == 0 { q.0 } else { q.1 })
            .fold(f32::MIN, f32::max)
    };
    for y in span(lo(1), hi(1), h) {
        for x in span(lo(0), hi(0), w) {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let e = [
                edge(p[0], p[1], px, py),
                edge(p[1], p[2], px, py),
                edge(p[2], p[0], px, py),
            ];
            // Inside whichever way the corners turn.
            if e.iter().all(|&v| v >= 0.0) || e.iter().all(|&v| v <= 0.0) {
                paint(img, x, y, fill);
            }
        }
    }
}
