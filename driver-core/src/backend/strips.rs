//! [`Strips`]: a picture put together from strips and shrunk as they come,
//! for a browser that can neither scale a capture nor take one as tall as
//! the page (Firefox over BiDi: no scale, at most 65,535 pixels a side).
//! It holds one strip and the picture being made, never the page at full
//! size, so the full-page picture [`FullPage`](crate::FullPage) plans costs
//! what its budget says.

use crate::{DriverError, Result};

/// A picture `width`×`height` made of strips of a larger one, each pixel
/// the mean of the pixels it covers.
pub struct Strips {
    width: usize,
    height: usize,
    /// Source pixels per picture pixel, set by the first strip's width.
    ratio: f64,
    /// Source rows not yet used up (RGB), and the index of the first.
    rows: Vec<Vec<u8>>,
    first: usize,
    /// The picture's rows made so far (RGB).
    made: Vec<u8>,
}

impl Strips {
    /// A picture of `width`×`height` pixels, to be made from strips that
    /// are each as wide as the part of the page taken.
    pub fn new(width: u32, height: u32) -> Self {
        let (width, height) = (width.max(1) as usize, height.max(1) as usize);
        Self {
            width,
            height,
            ratio: 0.0,
            rows: Vec::new(),
            first: 0,
            made: Vec::with_capacity(width * height * 3),
        }
    }

    /// Adds the next strip (a PNG) below the last, and makes every row of
    /// the picture it completes.
    pub fn push(&mut self, png: &[u8]) -> Result<()> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(unreadable)?;
        let channels = reader.output_color_type().0.samples();
        let columns = reader.info().width as usize;
        if self.ratio == 0.0 {
            self.ratio = (columns as f64 / self.width as f64).max(1.0);
        }
        while let Some(row) = reader.next_row().map_err(unreadable)? {
            let data = row.data();
            let rgb: Vec<u8> = (0..columns)
                .flat_map(|column| {
                    let pixel = &data[column * channels..(column + 1) * channels];
                    match channels {
                        1 | 2 => [pixel[0]; 3],
                        _ => [pixel[0], pixel[1], pixel[2]],
                    }
                })
                .collect();
            self.rows.push(rgb);
        }
        self.make(false);
        Ok(())
    }

    /// The picture as a PNG, or as a JPEG of `quality` (1 to 100): the rows
    /// no strip reached are left out.
    pub fn finish(mut self, jpeg: Option<u8>) -> Result<Vec<u8>> {
        self.make(true);
        let rows = (self.made.len() / (self.width * 3)).max(1);
        self.made.resize(rows * self.width * 3, 255);
        if let Some(quality) = jpeg {
            let mut out = Vec::new();
            let (Ok(width), Ok(height)) = (u16::try_from(self.width), u16::try_from(rows)) else {
                return Err(DriverError::Protocol(
                    "the picture is too large for a JPEG".to_owned(),
                ));
            };
            jpeg_encoder::Encoder::new(&mut out, quality.clamp(1, 100))
                .encode(&self.made, width, height, jpeg_encoder::ColorType::Rgb)
                .map_err(|error| {
                    DriverError::Protocol(format!("the picture could not be written: {error}"))
                })?;
            return Ok(out);
        }
        let mut png = Vec::new();
        let mut encoder = png::Encoder::new(&mut png, self.width as u32, rows as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header().map_err(unwritable)?;
        writer.write_image_data(&self.made).map_err(unwritable)?;
        writer.finish().map_err(unwritable)?;
        Ok(png)
    }

    /// Makes the picture's next rows while the source rows they cover are
    /// here (with `all`, whatever part of them is), and lets go of the
    /// source rows no later row covers.
    fn make(&mut self, all: bool) {
        let had = self.first + self.rows.len();
        loop {
            let row = self.made.len() / (self.width * 3);
            if row >= self.height {
                break;
            }
            let (top, bottom) = span(row, self.ratio);
            if bottom > had && !(all && top < had) {
                break;
            }
            let bottom = bottom.min(had);
            for column in 0..self.width {
                let (left, right) = span(column, self.ratio);
                let mut sum = [0u64; 3];
                let mut count = 0u64;
                for source in &self.rows[top - self.first..bottom - self.first] {
                    // A strip narrower than the picture leaves its right
                    // edge white.
                    let right = right.min(source.len() / 3);
                    let left = left.min(right);
                    for pixel in source[left * 3..right * 3].chunks_exact(3) {
                        for (total, value) in sum.iter_mut().zip(pixel) {
                            *total += u64::from(*value);
                        }
                        count += 1;
                    }
                }
                if count == 0 {
                    self.made.extend([255; 3]);
                    continue;
                }
                self.made
                    .extend(sum.iter().map(|total| (total / count) as u8));
            }
            let next_top = span(row + 1, self.ratio).0.min(had);
            if next_top > self.first {
                self.rows.drain(..next_top - self.first);
                self.first = next_top;
            }
        }
    }
}

/// The source pixels picture pixel `index` covers along one side.
fn span(index: usize, ratio: f64) -> (usize, usize) {
    let start = (index as f64 * ratio).floor() as usize;
    let end = (((index + 1) as f64 * ratio).floor() as usize).max(start + 1);
    (start, end)
}

fn unreadable(error: png::DecodingError) -> DriverError {
    DriverError::Protocol(format!("a strip of the picture is no PNG: {error}"))
}

fn unwritable(error: png::EncodingError) -> DriverError {
    DriverError::Protocol(format!("the picture could not be written: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG `width`×`height` whose pixel at (x, y) is `colour(x, y)`.
    fn png_of(width: u32, height: u32, colour: impl Fn(u32, u32) -> u8) -> Vec<u8> {
        let mut png = Vec::new();
        let mut encoder = png::Encoder::new(&mut png, width, height);
        encoder.set_color(png::ColorType::Grayscale);
        let mut writer = encoder.write_header().unwrap();
        let data: Vec<u8> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| colour(x, y))
            .collect();
        writer.write_image_data(&data).unwrap();
        writer.finish().unwrap();
        png
    }

    fn pixels(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut data = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut data).unwrap();
        data.truncate(info.buffer_size());
        (info.width, info.height, data)
    }

    #[test]
    fn strips_at_half_size_are_the_means_of_their_squares() {
        // Stripes two rows high, one black and one white, across three
        // strips whose edges fall inside a picture row.
        let stripe = |_x: u32, y: u32| if (y / 2).is_multiple_of(2) { 0 } else { 200 };
        let mut strips = Strips::new(4, 6);
        for (top, rows) in [(0, 3), (3, 5), (8, 4)] {
            let piece = png_of(8, rows, |x, y| stripe(x, y + top));
            strips.push(&piece).unwrap();
        }
        let (width, height, data) = pixels(&strips.finish(None).unwrap());
        assert_eq!((width, height), (4, 6));
        let column: Vec<u8> = data
            .chunks_exact(3)
            .step_by(4)
            .map(|pixel| pixel[0])
            .collect();
        assert_eq!(column, vec![0, 200, 0, 200, 0, 200]);
    }

    #[test]
    fn a_picture_the_strips_do_not_fill_ends_where_they_do() {
        let mut strips = Strips::new(10, 100);
        strips.push(&png_of(10, 7, |x, _| x as u8 * 10)).unwrap();
        let (width, height, data) = pixels(&strips.finish(None).unwrap());
        assert_eq!((width, height), (10, 7));
        assert_eq!(data[3 * 9], 90);
    }

    #[test]
    fn a_strip_narrower_than_the_picture_leaves_white() {
        let mut strips = Strips::new(8, 2);
        strips.push(&png_of(4, 2, |_, _| 0)).unwrap();
        let (width, _, data) = pixels(&strips.finish(None).unwrap());
        assert_eq!(width, 8);
        assert_eq!((data[0], data[3 * 7]), (0, 255));
    }

    #[test]
    fn a_jpeg_is_one() {
        let mut strips = Strips::new(16, 16);
        strips.push(&png_of(32, 32, |x, y| (x * y) as u8)).unwrap();
        let jpeg = strips.finish(Some(60)).unwrap();
        assert!(jpeg.starts_with(&[0xFF, 0xD8, 0xFF]));
    }
}
