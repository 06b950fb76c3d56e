import { inflateSync } from 'node:zlib';

/** A decoded picture: its size and RGBA bytes, four to a pixel, row by row. */
export interface Picture {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * Decodes a PNG as WebDriver's screenshots write it (8 bits per channel, RGB or RGBA, not
 * interlaced), enough to look at the colours a WebGL canvas drew: its pixels are not readable
 * from the page.
 */
export function decodePng(file: Buffer): Picture {
  if (file.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 4;
  const data: Buffer[] = [];
  while (at < file.length) {
    const length = file.readUInt32BE(at);
    const type = file.toString('ascii', at + 4, at + 8);
    const body = file.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) throw new Error(`unsupported PNG (depth ${depth}, colour ${colour})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? rows[y * stride + x - channels]! : 0;
      const up = y > 0 ? rows[(y - 1) * stride + x]! : 0;
      const corner = y > 0 && x >= channels ? rows[(y - 1) * stride + x - channels]! : 0;
      let value = line[x]!;
      if (filter === 1) value += left;
      else if (filter === 2) value += up;
      else if (filter === 3) value += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - corner;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      }
      rows[y * stride + x] = value & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba[i * 4] = rows[i * channels]!;
    rgba[i * 4 + 1] = rows[i * channels + 1]!;
    rgba[i * 4 + 2] = rows[i * channels + 2]!;
    rgba[i * 4 + 3] = channels === 4 ? rows[i * channels + 3]! : 255;
  }
  return { width, height, rgba };
}

/** How many pixels inside `box` (CSS pixels times `scale`) are within `tolerance` of `hex`. */
export function countColour(picture: Picture, box: { x: number; y: number; width: number; height: number }, hex: string, tolerance = 24, scale = 1): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  let count = 0;
  const [left, top] = [Math.max(0, Math.floor(box.x * scale)), Math.max(0, Math.floor(box.y * scale))];
  const right = Math.min(picture.width, Math.floor((box.x + box.width) * scale));
  const bottom = Math.min(picture.height, Math.floor((box.y + box.height) * scale));
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      const i = (y * picture.width + x) * 4;
      if (Math.abs(picture.rgba[i]! - r) <= tolerance && Math.abs(picture.rgba[i + 1]! - g) <= tolerance && Math.abs(picture.rgba[i + 2]! - b) <= tolerance) count++;
    }
  }
  return count;
}
